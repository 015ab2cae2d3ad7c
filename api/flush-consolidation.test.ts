import assert from "node:assert/strict";
import { createServer, request, Agent, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { consolidateWrites } from "./flush-consolidation.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function withServer(handler: Handler, use: (port: number) => Promise<void>): Promise<void> {
  const server = createServer(handler);
  server.prependListener("connection", consolidateWrites);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await use((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Sends `raw` on one connection and reads until `responses` bodies (each ending with "!") came back. */
function exchange(port: number, raw: string, responses: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(raw));
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString();
      if (received.split("!").length - 1 === responses) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
  });
}

function get(port: number, agent: Agent, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

describe("socket writes consolidated per turn of the event loop", () => {
  it("sends the first answer of a turn at once and holds the turn's next one until its check phase", async () => {
    const pending: Record<string, number> = {};
    let waiting: ServerResponse | undefined;
    const arrived = Promise.withResolvers<void>();
    await withServer(
      (req, res) => {
        if (req.url === "/later") {
          waiting = res; // answered in the turn of the next request
          arrived.resolve();
          return;
        }
        res.end("first!");
        pending.first = res.socket!.writableLength;
        waiting!.end("later!");
        pending.later = waiting!.socket!.writableLength;
        setImmediate(() => (pending.flushed = waiting!.socket?.writableLength ?? 0));
      },
      async (port) => {
        const later = exchange(port, GET("/later"), 1);
        await arrived.promise;
        const first = await exchange(port, GET("/first"), 1);
        assert.match(first, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nfirst!$/);
        assert.match(await later, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nlater!$/);
      },
    );
    assert.deepEqual(pending, { first: 0, later: pending.later, flushed: 0 });
    assert.ok(pending.later! > 0, "the turn's second answer waits for the check phase");
  });

  it("sends a held answer before its socket is destroyed in the same turn (a 408 written, then the close)", async () => {
    let waiting: ServerResponse | undefined;
    const arrived = Promise.withResolvers<void>();
    let heldWhenDestroyed = 0;
    await withServer(
      (req, res) => {
        if (req.url === "/closing") {
          waiting = res;
          arrived.resolve();
          return;
        }
        res.end("first!");
        waiting!.end("closing!");
        heldWhenDestroyed = waiting!.socket!.writableLength;
        waiting!.socket!.destroy();
      },
      async (port) => {
        const closing = exchange(port, GET("/closing"), 1);
        await arrived.promise;
        await exchange(port, GET("/first"), 1);
        assert.match(await closing, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nclosing!$/);
      },
    );
    assert.ok(heldWhenDestroyed > 0, "the answer was held when its socket was destroyed");
  });

  it("sends two pipelined answers ended in one turn, in order", async () => {
    await withServer(
      (req, res) => res.end(`${req.url}!`),
      async (port) => {
        const answer = await exchange(port, GET("/first") + GET("/second"), 2);
        assert.ok(answer.indexOf("/first!") < answer.indexOf("/second!"), answer);
        assert.equal(answer.match(/HTTP\/1\.1 200 OK/g)?.length, 2);
      },
    );
  });

  it("sends an answer larger than the socket's buffers whole, written in parts", async () => {
    const big = "x".repeat(8 * 1024 * 1024);
    await withServer(
      (_req, res) => {
        res.write(big.slice(0, 1024));
        res.end(big.slice(1024));
      },
      async (port) => {
        const agent = new Agent({ keepAlive: true });
        const { status, body } = await get(port, agent, "/big");
        agent.destroy();
        assert.equal(status, 200);
        assert.equal(body.length, big.length);
      },
    );
  });

  it("keeps serving every other client when clients leave before their answers are flushed", async () => {
    await withServer(
      (req, res) => {
        if (req.url === "/leave") res.socket!.destroy();
        res.end(`${req.url}!`);
      },
      async (port) => {
        const leaving = Array.from({ length: 20 }, () => exchange(port, GET("/leave"), 1).catch(() => ""));
        const agent = new Agent({ keepAlive: true, maxSockets: 100 });
        const answers = await Promise.all(Array.from({ length: 2000 }, (_, i) => get(port, agent, `/${i}`)));
        agent.destroy();
        assert.deepEqual(await Promise.all(leaving), Array(20).fill(""), "those clients got nothing");
        answers.forEach(({ status, body }, i) => assert.deepEqual({ status, body }, { status: 200, body: `/${i}!` }));
      },
    );
  });
});
