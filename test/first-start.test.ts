// The README's first command, `npm start`, as a newcomer runs it in a fresh
// clone: as whichever user runs the tests (root here and in CI, where the
// embedded PostgreSQL must run as an account of its own), from a clone in a
// folder others may enter and from one only its owner may enter (a root
// user's home), a first start and a second one. The key for secrets at rest
// stays readable by its owner alone, and the first log lines read cleanly.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { killAllServers, spawnServer, type ServerProcess } from "./helpers/server-process.ts";

const REPOSITORY = fileURLToPath(new URL("../", import.meta.url));
const ROOT = process.getuid?.() === 0;
const TIMEOUT = { timeout: 180_000 };
const run = promisify(execFile);

describe("npm start in a fresh clone", () => {
  const sandboxes: string[] = [];
  after(async () => {
    await killAllServers();
    for (const sandbox of sandboxes) {
      // A cluster kept outside the clone goes with it.
      const cluster = await readlink(join(sandbox, "clone", "data", "pg")).catch(() => undefined);
      if (cluster) await rm(cluster, { recursive: true, force: true });
      await rm(sandbox, { recursive: true, force: true });
    }
  });

  /** A clone of the working tree (without data/ or .git) in a new folder with the given mode. */
  const freshClone = async (mode: number) => {
    const sandbox = await mkdtemp(join(tmpdir(), "svc-first-start-"));
    sandboxes.push(sandbox);
    await run("chmod", [mode.toString(8), sandbox]);
    const clone = join(sandbox, "clone");
    await mkdir(clone);
    const entries = (await readdir(REPOSITORY)).filter((name) => ![".git", "data", ".bench"].includes(name)).map((name) => join(REPOSITORY, name));
    // Hard links make the copy cheap (node_modules included); a copy where links cannot cross file systems.
    await run("cp", ["-al", ...entries, clone]).catch(() => run("cp", ["-a", ...entries, clone]));
    return clone;
  };

  // A newcomer's environment: no store, no key, none of the test run's settings.
  const newcomer = Object.fromEntries(Object.keys(process.env).filter((name) => name.startsWith("SVC_")).map((name) => [name, undefined]));
  const start = (clone: string) =>
    spawnServer({ entry: "main.ts", npmStartIn: clone, args: ["--port", "0"], env: { ...newcomer, PG_URL: undefined, DATABASE_URL: undefined }, timeoutMs: 90_000 });

  const assertServes = async (server: ServerProcess) => {
    const health = await fetch(`${server.baseUrl}/healthz`);
    assert.equal(health.status, 200, server.output());
    const info = (await (await fetch(`${server.baseUrl}/v1/actuator/info`)).json()) as { version?: string };
    assert.match(info.version ?? "", /^\d+\.\d+\.\d+$/);
  };

  const messages = (server: ServerProcess) => server.logs.map((l) => String(l.json?.msg ?? l.text));

  /** The process group of a live process (field 5 of /proc/<pid>/stat, after the command's parenthesis). */
  const processGroup = async (pid: number) => Number((await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ")[2]);

  /** Stops a server as a terminal's Ctrl-C does (the whole group); it drains with its store still up and logs no error. */
  const stopCleanly = async (server: ServerProcess, clone: string) => {
    const postmaster = Number((await readFile(join(clone, "data", "pg", "postmaster.pid"), "utf8")).split("\n")[0]);
    assert.notEqual(await processGroup(postmaster), await processGroup(server.pid), "the embedded PostgreSQL is out of reach of the group's signal");
    await server.stop();
    assert.ok(messages(server).includes("server stopped"), server.output());
    const errors = server.logs.filter((line) => /^\[[\d:.]+\] (ERROR|FATAL):/.test(line.text));
    assert.deepEqual(errors, [], server.output());
    assert.equal(existsSync(`/proc/${postmaster}`), false, "the embedded PostgreSQL stops with the server");
  };

  const startTwice = async (clone: string) => {
    const first = await start(clone);
    await assertServes(first);
    await stopCleanly(first, clone);
    const second = await start(clone);
    await assertServes(second);
    await stopCleanly(second, clone);
    return { firstLines: messages(first), secondLines: messages(second) };
  };

  it("starts twice from a folder others may enter; the key stays the owner's", TIMEOUT, async () => {
    const clone = await freshClone(0o755);
    const { firstLines, secondLines } = await startTwice(clone);
    const data = join(clone, "data");
    const key = await stat(join(data, "secret.key"));
    assert.equal(key.mode & 0o777, 0o600, "the key is readable by its owner only");
    assert.equal(key.uid, process.getuid?.());
    assert.equal((await stat(join(data, "pg-password"))).mode & 0o777, 0o600);
    // As root, the server's account passes through data/ but cannot list it.
    assert.equal((await stat(data)).mode & 0o777, ROOT ? 0o711 : 0o700);
    assert.ok((await lstat(join(data, "pg"))).isDirectory(), "the cluster lives in data/pg");

    // The first lines a newcomer reads: each migration named, no crontab complaint.
    const applied = firstLines.filter((m) => /\bmigration\b.*\bapplied\b/.test(m));
    assert.ok(applied.length > 10, firstLines.join("\n"));
    for (const line of applied) assert.match(line, /^migration \d{4}_[a-z0-9_]+\.sql applied$/);
    assert.ok(!firstLines.some((m) => /crontab/i.test(m)), firstLines.join("\n"));
    assert.ok(firstLines.some((m) => m.startsWith("bootstrap admin password: ")));
    assert.ok(!secondLines.some((m) => /\bmigration\b.*\bapplied\b/.test(m)), "the second start has nothing to migrate");
    assert.ok(!secondLines.some((m) => m.startsWith("bootstrap admin password")), "the password is printed once");
  });

  it("starts twice from a folder only its owner may enter, as in a root user's home", TIMEOUT, async () => {
    const clone = await freshClone(0o700);
    await startTwice(clone);
    const data = join(clone, "data");
    assert.equal((await stat(join(data, "secret.key"))).mode & 0o777, 0o600);
    const pg = await lstat(join(data, "pg"));
    if (!ROOT) {
      assert.ok(pg.isDirectory(), "a user's own server reaches its own folder");
      return;
    }
    // The server's account cannot enter the clone: its files live where it can, data/pg points there.
    assert.ok(pg.isSymbolicLink(), "data/pg links to the cluster kept outside the clone");
    const cluster = await readlink(join(data, "pg"));
    const owner = await stat(cluster);
    assert.notEqual(owner.uid, 0, "the cluster belongs to an unprivileged account");
    assert.equal(owner.mode & 0o777, 0o700);
  });
});
