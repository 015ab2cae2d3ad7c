// REST+JSON transcoded from google.api.http: path variables, custom verbs,
// body mapping, query parameters in both spellings, update masks.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";

describe("REST transcoding", () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
    await adminQuery("create table thing_change (name text not null)", app.database.url);
  });
  after(() => app.close());

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
  };

  it("rebuilds a multi-segment resource name from the path", async () => {
    const { status, body } = await call("GET", "/v1/shelves/s1/things/t-9");
    assert.equal(status, 200);
    assert.equal(body.name, "shelves/s1/things/t-9");
  });

  it("reads query parameters in snake_case and lowerCamelCase, with their types", async () => {
    const query =
      "shiny=true&color=BLUE&labels=a&labels=b&size=9007199254740993&seen_time=2026-11-20T10:00:00Z&detail.note=hi&pageSize=7&require_2fa=true";
    const { status, body } = await call("GET", `/v1/shelves/s1/things/t1?${query}`);
    assert.equal(status, 200);
    assert.deepEqual(body, {
      name: "shelves/s1/things/t1",
      shiny: true,
      color: "BLUE",
      labels: ["a", "b"],
      size: "9007199254740993",
      seenTime: "2026-11-20T10:00:00Z",
      detail: { note: "hi" },
      require2fa: true,
      title: "page size 7",
    });
  });

  it("accepts enum numbers and comma-separated lists", async () => {
    const { body } = await call("GET", "/v1/shelves/s1/things/t1?color=1&labels=x,y");
    assert.equal(body.color, "RED");
    assert.deepEqual(body.labels, ["x", "y"]);
  });

  it("refuses a malformed query value with invalid_argument naming the parameter", async () => {
    const { status, body } = await call("GET", "/v1/shelves/s1/things/t1?shiny=maybe");
    assert.equal(status, 400);
    assert.equal(body.code, "invalid_argument");
    assert.match(String(body.message), /shiny/);
  });

  it("maps the body to one field and the update mask from the query, in snake_case", async () => {
    const { status, body } = await call("PATCH", "/v1/shelves/s1/things/t1?updateMask=title,detail.note,require2fa", {
      title: "new",
      name: "ignored/by/path",
    });
    assert.equal(status, 200);
    assert.equal(body.name, "shelves/s1/things/t1", "the path variable wins over the body");
    assert.equal(body.title, "new");
    assert.equal(body.receivedMask, "title,detail.note,require2fa");
    const snake = await call("PATCH", "/v1/shelves/s1/things/t1?update_mask=seen_time", { title: "x" });
    assert.equal(snake.body.receivedMask, "seen_time");
  });

  it("ignores body fields the message does not know, at any depth, in either spelling of the known ones (§1.3)", async () => {
    const { status, body } = await call("PATCH", "/v1/shelves/s1/things/t1?updateMask=title,detail", {
      title: "kept",
      futureField: { anything: [1, 2] },
      detail: { note: "n", level: 3, futureNested: "x" },
      seen_time: "2026-11-20T10:00:00Z",
      require_2fa: true,
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body, {
      name: "shelves/s1/things/t1",
      title: "kept",
      detail: { note: "n", level: 3 },
      seenTime: "2026-11-20T10:00:00Z",
      require2fa: true,
      receivedMask: "title,detail",
    });
    const polished = await call("POST", "/v1/shelves/s1/things/t1:polish", { title: "desk", unknown: true });
    assert.deepEqual([polished.status, polished.body.title], [200, "polished desk"]);
  });

  it("ignores unknown fields inside lists of messages, and records the request as decoded", async () => {
    const { status, body } = await call("POST", "/v1/shelves/s1/things/listed:record", {
      outcome: "ok",
      details: [{ note: "a", colour: "red" }, { level: 2 }],
      extra: 1,
    });
    assert.equal(status, 200, JSON.stringify(body));
    const [row] = (await adminQuery(`select request from audit_log where resource = 'shelves/s1/things/listed'`, app.database.url)).rows;
    assert.deepEqual(JSON.parse(row.request), { name: "shelves/s1/things/listed", outcome: "ok", details: [{ note: "a" }, { level: 2 }] });
  });

  it("refuses an unknown enum value and a malformed known field with invalid_argument", async () => {
    for (const [path, sent] of [
      ["/v1/shelves/s1/things/t1", { color: "PURPLE" }],
      ["/v1/shelves/s1/things/t1", { size: "big" }],
      ["/v1/shelves/s1/things/t1", { detail: { level: "high" } }],
    ] as const) {
      const { status, body } = await call("PATCH", `${path}?updateMask=color`, sent);
      assert.equal(status, 400, JSON.stringify(sent));
      assert.equal(body.code, "invalid_argument");
      assert.match(String(body.message), /^invalid request: /);
    }
    const { body } = await call("PATCH", "/v1/shelves/s1/things/t1?updateMask=color", { color: "PURPLE" });
    assert.match(String(body.message), /PURPLE/);
  });

  it("serves a custom verb on a resource with body '*'", async () => {
    const { status, body } = await call("POST", "/v1/shelves/s1/things/t1:polish", { title: "desk" });
    assert.equal(status, 200);
    assert.deepEqual(body, { name: "shelves/s1/things/t1", title: "polished desk", shiny: true });
  });

  it("serves a static custom verb on a collection", async () => {
    const { status, body } = await call("POST", "/v1/things:count", { count: 3 });
    assert.equal(status, 200);
    assert.deepEqual(body, { count: 3 });
  });

  it("answers an unknown verb and an unknown route with not_found in JSON", async () => {
    for (const path of ["/v1/shelves/s1/things/t1:burn", "/v1/nothing/here"]) {
      const { status, body, headers } = await call("POST", path, {});
      assert.equal(status, 404);
      assert.match(headers.get("content-type") ?? "", /^application\/json/);
      assert.equal(body.code, "not_found");
    }
  });

  it("keeps a value containing ':' out of a plain resource route", async () => {
    const { status } = await call("GET", "/v1/shelves/s1/things/t1:polish");
    assert.equal(status, 404);
  });
});
