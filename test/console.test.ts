// The web console served at / (contract §19.5, decision 0091): hashed assets
// cached for a year, index.html revalidated, the SPA fallback for browser
// navigations that never shadows an API path, the security headers, and the
// page saying the console is not built. Served from a temporary directory
// laid out as `npm run build:web` lays out web/dist.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestApp } from "./helpers/app.ts";

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-4f2a9c.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("the console");\n';
const HTML = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

async function fakeBuild(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "console-dist-"));
  await mkdir(join(dir, "assets"));
  await writeFile(join(dir, "index.html"), INDEX);
  await writeFile(join(dir, "favicon.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(dir, "assets", "index-4f2a9c.js"), SCRIPT);
  await writeFile(join(dir, "assets", "index-4f2a9c.js.gz"), gzipSync(SCRIPT));
  return dir;
}

/** A GET whose path goes out exactly as written (fetch would normalise "//" and ".."). */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl);
    const req = request({ hostname, port, path, headers: HTML }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), body }));
    });
    req.on("error", reject);
    req.end();
  });
}

function assertConsoleHeaders(res: Response): void {
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /(^|; )script-src 'self'(;|$)/);
  assert.match(csp, /(^|; )frame-ancestors 'none'(;|$)/);
  assert.match(csp, /(^|; )object-src 'none'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.equal(res.headers.get("x-frame-options"), "DENY");
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  assert.equal(res.headers.get("referrer-policy"), "no-referrer");
}

async function assertIndex(res: Response): Promise<void> {
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  assert.equal(res.headers.get("cache-control"), "no-cache");
  assertConsoleHeaders(res);
  if (res.body) assert.equal(await res.text(), INDEX);
}

describe("web console files", () => {
  let app: TestApp;
  let dir: string;
  before(async () => {
    dir = await fakeBuild();
    app = await startTestApp({ flags: ["--console-dir", dir] });
  });
  after(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("serves / and /index.html with no-cache and the security headers", async () => {
    await assertIndex(await fetch(`${app.baseUrl}/`, { headers: HTML }));
    await assertIndex(await fetch(`${app.baseUrl}/index.html`));
    await assertIndex(await fetch(`${app.baseUrl}/`, { method: "HEAD" }));
  });

  it("caches hashed assets for a year, immutable, and serves the gzip sibling to who accepts it", async () => {
    const plain = await fetch(`${app.baseUrl}/assets/index-4f2a9c.js`, { headers: { "accept-encoding": "identity" } });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.match(plain.headers.get("content-type") ?? "", /^text\/javascript|^application\/javascript/);
    assert.equal(plain.headers.get("content-encoding"), null);
    assert.equal(await plain.text(), SCRIPT);
    assertConsoleHeaders(plain);
    const gzipped = await fetch(`${app.baseUrl}/assets/index-4f2a9c.js`, { headers: { "accept-encoding": "gzip" } });
    assert.equal(gzipped.headers.get("content-encoding"), "gzip");
    assert.match(gzipped.headers.get("vary") ?? "", /accept-encoding/i);
    assert.equal(await gzipped.text(), SCRIPT, "fetch decodes it back to the file");
  });

  it("revalidates the other top-level files", async () => {
    const icon = await fetch(`${app.baseUrl}/favicon.svg`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get("cache-control"), "no-cache");
    assert.match(icon.headers.get("content-type") ?? "", /^image\/svg\+xml/);
  });

  it("answers index.html to a browser navigating to a console route", async () => {
    await assertIndex(await fetch(`${app.baseUrl}/projects/x/issues/1`, { headers: HTML }));
    await assertIndex(await fetch(`${app.baseUrl}/auth/password-reset?token=abc_DEF-123`, { headers: HTML }));
    await assertIndex(await fetch(`${app.baseUrl}/sql-editor`, { method: "HEAD", headers: HTML }));
  });

  it("answers the JSON 404 to what is not a navigation: no text/html, or not GET/HEAD", async () => {
    for (const init of [{ headers: { accept: "application/json" } }, {}, { method: "POST", headers: HTML }] as RequestInit[]) {
      const res = await fetch(`${app.baseUrl}/projects/x`, init);
      assert.equal(res.status, 404, JSON.stringify(init));
      assert.equal(((await res.json()) as { code: string }).code, "not_found");
    }
  });

  it("never shadows an API path, known or unknown, even for a browser", async () => {
    const jsonNotFound = [
      "/v1",
      "/v1/",
      "/v1/no/such/thing",
      "/v1/projects/p1/nothing:here",
      "/svc.v1.NoSuchService/Get",
      "/grpc.health.v1.Health/Check",
      "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
      "/debug/pprof/",
      "/scim",
      "/openapi.json/x",
      "/metrics/x",
      "/healthz/x",
      "/assets/index-0000.js",
    ];
    for (const path of jsonNotFound) {
      const res = await fetch(`${app.baseUrl}${path}`, { headers: HTML });
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/, path);
      assert.equal(((await res.json()) as { code: string }).code, "not_found", path);
    }
    const served: [string, number, RegExp][] = [
      ["/healthz", 200, /^application\/json/],
      ["/readyz", 200, /^application\/json/],
      ["/metrics", 200, /^text\/plain; version=0\.0\.4/],
      ["/openapi.json", 200, /^application\/json/],
      ["/v1/actuator/info", 200, /^application\/json/],
      ["/v1/users/me", 401, /^application\/json/],
      ["/scim/v2/Users", 501, /json/],
      ["/scim/v2/NoSuchResource", 501, /json/],
      ["/svc.v1.ActuatorService/GetActuatorInfo?encoding=json&message=%7B%7D", 200, /^application\/json/],
    ];
    for (const [path, status, type] of served) {
      const res = await fetch(`${app.baseUrl}${path}`, { headers: HTML });
      assert.equal(res.status, status, `${path}: ${await res.clone().text()}`);
      assert.match(res.headers.get("content-type") ?? "", type, path);
      assert.doesNotMatch(await res.text(), /<div id="root">/, path);
    }
  });

  it("refuses non-canonical asset paths with the JSON 404, never a 5xx", async () => {
    for (const path of ["/assets//index-4f2a9c.js", "/assets/./index-4f2a9c.js", "/assets/x/../index-4f2a9c.js"]) {
      const res = await rawGet(app.baseUrl, path);
      assert.equal(res.status, 404, `${path}: ${res.body}`);
      assert.match(res.type, /^application\/json/, path);
    }
  });

  it("marks API answers nosniff and not frameable, without the console's policy", async () => {
    const res = await fetch(`${app.baseUrl}/v1/actuator/info`);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.equal(res.headers.get("x-frame-options"), "DENY");
    assert.equal(res.headers.get("content-security-policy"), null);
    const connect = await fetch(`${app.baseUrl}/svc.v1.ActuatorService/GetActuatorInfo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(connect.status, 200);
    assert.equal(connect.headers.get("x-content-type-options"), "nosniff");
    assert.equal(connect.headers.get("x-frame-options"), "DENY");
  });
});

describe("web console not built", () => {
  let app: TestApp;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "console-empty-"));
    app = await startTestApp({ flags: ["--console-dir", join(dir, "dist")] });
  });
  after(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("answers / and navigations with a plain 404 saying how to build it; the API is unchanged", async () => {
    for (const path of ["/", "/projects/x/issues/1"]) {
      const res = await fetch(`${app.baseUrl}${path}`, { headers: HTML });
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
      assert.match(await res.text(), /not built[\s\S]*npm run build:web/);
      assertConsoleHeaders(res);
    }
    const api = await fetch(`${app.baseUrl}/v1/nope`, { headers: HTML });
    assert.equal(api.status, 404);
    assert.equal(((await api.json()) as { code: string }).code, "not_found");
    assert.equal((await fetch(`${app.baseUrl}/assets/index-4f2a9c.js`)).status, 404);
  });
});
