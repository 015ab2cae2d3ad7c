// Server limits of contract §15.6 on the one-port server: request headers
// must arrive within 30 s, an idle keep-alive connection (HTTP/1.1) or session
// (h2c) closes after 65 s, a connection that sends nothing is dropped, and
// request bodies are limited to 10 MiB by default. The timeouts are shown
// with short values on the same server factory, and the real app's defaults.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { connect as http2Connect } from "node:http2";
import { connect as netConnect, type AddressInfo, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { createHybridServer, DEFAULT_TIMEOUTS } from "../api/server-factory.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";

const SHORT = { headersMs: 400, keepAliveMs: 600, sniffMs: 300 };

/** Milliseconds from now until the socket closes (fails after 5 s). */
function msUntilClosed(socket: Socket): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server kept the connection open")), 5_000);
    socket.on("error", () => {});
    socket.once("close", () => {
      clearTimeout(timer);
      resolve(performance.now() - started);
    });
  });
}

describe("server timeouts", () => {
  const server = createHybridServer((_req, res) => res.end("ok"), SHORT);
  let port: number;
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const open = () =>
    new Promise<Socket>((resolve) => {
      const socket = netConnect(port, "127.0.0.1", () => resolve(socket));
    });

  it("are 30 s for request headers and 65 s for idle keep-alive by default", () => {
    assert.equal(DEFAULT_TIMEOUTS.headersMs, 30_000);
    assert.equal(DEFAULT_TIMEOUTS.keepAliveMs, 65_000);
  });

  it("drops a connection that sends nothing", async () => {
    const ms = await msUntilClosed(await open());
    assert.ok(ms >= SHORT.sniffMs - 50 && ms < SHORT.sniffMs + 1_000, `closed after ${ms} ms`);
  });

  it("answers 408 and closes when the request headers do not complete in time", async () => {
    const socket = await open();
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
    socket.write("GET / HTTP/1.1\r\nHost: localhost\r\n"); // the blank line never comes
    const ms = await msUntilClosed(socket);
    assert.ok(ms >= SHORT.headersMs - 50 && ms < SHORT.headersMs + 1_500, `closed after ${ms} ms`);
    assert.match(received, /^HTTP\/1\.1 408 /);
  });

  it("closes an idle HTTP/1.1 keep-alive connection and says when in Keep-Alive", async () => {
    const socket = await open();
    const response = new Promise<string>((resolve) => socket.once("data", (chunk: Buffer) => resolve(chunk.toString())));
    socket.write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    const head = await response;
    assert.match(head, /^HTTP\/1\.1 200 /);
    assert.match(head, /\r\nKeep-Alive: timeout=0\r\n/i, "whole seconds: 600 ms rounds down");
    const ms = await msUntilClosed(socket);
    // Node keeps the socket open a little past the advertised time, so a client never races the close.
    assert.ok(ms >= SHORT.keepAliveMs - 50 && ms < SHORT.keepAliveMs + 2_000, `closed after ${ms} ms`);
  });

  it("closes an idle h2c session", async () => {
    const session = http2Connect(`http://127.0.0.1:${port}`);
    session.on("error", () => {});
    await new Promise<void>((resolve, reject) => {
      const stream = session.request({ ":path": "/" });
      stream.on("data", () => {});
      stream.once("end", resolve);
      stream.once("error", reject);
      stream.end();
    });
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the server kept the session open")), 5_000);
      session.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const ms = performance.now() - started;
    assert.ok(ms >= SHORT.keepAliveMs - 50 && ms < SHORT.keepAliveMs + 1_500, `closed after ${ms} ms`);
  });
});

describe("the app's server limits", () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it("advertises the 65 s keep-alive", async () => {
    const keepAlive = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${app.baseUrl}/healthz`, (res) => {
        res.resume();
        resolve(String(res.headers["keep-alive"]));
      });
      req.once("error", reject);
      req.end();
    });
    assert.equal(keepAlive, "timeout=65");
  });

  it("refuses a body over 10 MiB with 413 resource_exhausted and takes one of exactly 10 MiB", async () => {
    const limit = 10 * 1024 * 1024;
    const EMPTY_LOGIN = JSON.stringify({ loginId: "nobody", password: "" });
    const post = (path: string, bytes: number) =>
      fetch(`${app.baseUrl}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ loginId: "nobody", password: "x".repeat(bytes - EMPTY_LOGIN.length) }),
      });
    for (const path of ["/v1/auth/login", "/svc.v1.AuthService/Login"]) {
      const over = await post(path, limit + 1);
      assert.equal(over.status, 413, path);
      assert.equal(((await over.json()) as { code: string }).code, "resource_exhausted");
    }
    for (const path of ["/v1/auth/login", "/svc.v1.AuthService/Login"]) {
      const atLimit = await post(path, limit);
      // Read and parsed whole: the input check then refuses the 10 MiB password by its field's limit.
      assert.equal(atLimit.status, 400, `${path}: a body of exactly 10 MiB is read and reaches the interceptor chain`);
      const body = (await atLimit.json()) as { code: string; message: string };
      assert.equal(body.code, "invalid_argument", path);
      assert.match(body.message, /^password: too long: 10485\d\d\d bytes, at most 4096 accepted$/, path);
    }
  });
});
