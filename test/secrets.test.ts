// Secrets at rest (contract §9.4): AES-256-GCM sealing, where the key comes
// from, and the refusal to start with another key than the workspace's.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ConfigError, loadConfig } from "../shared/platform/config.ts";
import { createDb, type Db } from "../shared/platform/db.ts";
import { checkSecretKey } from "../shared/governance/secret-key/key-check.ts";
import { createSecretBox, isSealed, SecretKeyMismatch, type SecretBox } from "../shared/platform/secrets/secret-box.ts";
import { GENERATED_KEY_FILE, loadSecretKey } from "../shared/platform/secrets/secret-key.ts";
import { rotateSecretKey } from "../shared/governance/secret-key/rotation.ts";
import { adminQuery, createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { killAllServers, runUntilExit, spawnServer } from "./helpers/server-process.ts";
import { makeUser } from "./helpers/users.ts";
import { quietLogger } from "./helpers/logger.ts";

const newKey = () => randomBytes(32);

describe("secret box", () => {
  it("seals to a tagged string that opens again, with a fresh nonce each time", () => {
    const box = createSecretBox(newKey());
    const a = box.seal("s3cret ✓");
    const b = box.seal("s3cret ✓");
    assert.ok(isSealed(a));
    assert.notEqual(a, b);
    assert.ok(!a.includes("s3cret"));
    assert.equal(box.open(a), "s3cret ✓");
    assert.equal(box.open(b), "s3cret ✓");
  });

  it("refuses a tampered value and names a foreign key", () => {
    const box = createSecretBox(newKey());
    const sealed = box.seal("value");
    const flipped = sealed.slice(0, -3) + (sealed.at(-3) === "A" ? "B" : "A") + sealed.slice(-2);
    assert.throws(() => box.open(flipped));
    const other = createSecretBox(newKey());
    assert.throws(() => other.open(sealed), (e: Error) => e instanceof SecretKeyMismatch && e.message.includes(box.keyId));
  });

  it("needs a 32-byte key", () => {
    assert.throws(() => createSecretBox(randomBytes(16)), /32 bytes/);
  });
});

describe("the key for secrets at rest", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "svc-secrets-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("comes from --secret-key-file before SVC_SECRET_KEY", async () => {
    const fileKey = newKey();
    const file = join(dir, "key");
    await writeFile(file, `${fileKey.toString("base64")}\n`);
    const envKey = newKey().toString("base64");
    const config = loadConfig(["--secret-key-file", file], { PG_URL: "postgres://x/y", SVC_SECRET_KEY: envKey });
    assert.deepEqual(await loadSecretKey(config, quietLogger()), fileKey);
    const fromEnv = loadConfig([], { PG_URL: "postgres://x/y", SVC_SECRET_KEY: envKey });
    assert.equal((await loadSecretKey(fromEnv, quietLogger())).toString("base64"), envKey);
  });

  it("refuses a malformed key, a missing file, and an external store without a key", async () => {
    const bad = loadConfig([], { PG_URL: "postgres://x/y", SVC_SECRET_KEY: "c2hvcnQ=" });
    await assert.rejects(loadSecretKey(bad, quietLogger()), (e: Error) => e instanceof ConfigError && /SVC_SECRET_KEY/.test(e.message));
    const missing = loadConfig(["--secret-key-file", join(dir, "absent")], {});
    await assert.rejects(loadSecretKey(missing, quietLogger()), /cannot read/);
    const none = loadConfig([], { PG_URL: "postgres://x/y" });
    await assert.rejects(loadSecretKey(none, quietLogger()), (e: Error) => e instanceof ConfigError && /--secret-key-file/.test(e.message));
  });

  it("is generated once into the data folder of the embedded store, private, even by racing starts", async () => {
    // The first start reads the key before the store creates the data folder.
    const config = loadConfig(["--data", join(dir, "first-start", "data")], {});
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadSecretKey(config, quietLogger())));
    for (const key of keys) assert.deepEqual(key, keys[0]);
    const file = join(config.dataDir, GENERATED_KEY_FILE);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(config.dataDir)).mode & 0o077, 0);
    assert.equal((await readFile(file, "utf8")).trim(), keys[0]!.toString("base64"));
    assert.deepEqual(await loadSecretKey(config, quietLogger()), keys[0]);
  });
});

describe("the workspace's key", () => {
  let database: TestDatabase;
  let db: Db;
  before(async () => {
    database = await createTestDatabase();
    db = await createDb(database.url, quietLogger(), { maxPoolSize: 2 });
  });
  after(async () => {
    await db.end();
    await database.drop();
  });

  /**
   * A fresh workspace on `current`'s key with two stored credentials: the
   * SMTP password sealed under `current`, a TOTP secret sealed under `mfaBox`.
   */
  const withStoredSecrets = async (current: SecretBox, mfaBox: SecretBox, work: (freshDb: Db, url: string) => Promise<void>) => {
    const fresh = await createTestDatabase();
    // One connection: the rotation refuses while other server connections are open.
    const freshDb = await createDb(fresh.url, quietLogger(), { maxPoolSize: 1 });
    try {
      await checkSecretKey(freshDb, current);
      const email = { from: "a@example.com", smtp: { host: "h", password: current.seal("smtp-pw") } };
      await adminQuery(`insert into setting (name, value) values ('EMAIL', '${JSON.stringify(email)}')`, fresh.url);
      await makeUser(freshDb, "mfa-user");
      await adminQuery(`update principal set mfa_secret = '${mfaBox.seal("totp-secret")}' where login_id = 'mfa-user'`, fresh.url);
      await work(freshDb, fresh.url);
    } finally {
      await freshDb.end();
      await fresh.drop();
    }
  };

  it("re-seals every stored credential under a new key", async () => {
    const current = createSecretBox(newKey());
    const next = createSecretBox(newKey());
    await withStoredSecrets(current, current, async (freshDb, url) => {
      await assert.rejects(rotateSecretKey(freshDb, createSecretBox(newKey()), next), /not the workspace's key/);
      assert.equal(await rotateSecretKey(freshDb, current, next), 2);
      const stored = (await adminQuery(`select value from setting where name = 'EMAIL'`, url)).rows[0].value;
      assert.equal(next.open(stored.smtp.password), "smtp-pw");
      assert.equal(stored.from, "a@example.com");
      const mfa = (await adminQuery(`select mfa_secret from principal where login_id = 'mfa-user'`, url)).rows[0].mfa_secret;
      assert.equal(next.open(mfa), "totp-secret");
      await checkSecretKey(freshDb, next);
      await assert.rejects(checkSecretKey(freshDb, current), ConfigError);
    });
  });

  it("re-seals all or nothing: one value it cannot open leaves every value and the key id as they were", async () => {
    const current = createSecretBox(newKey());
    // The TOTP secret is sealed under another key, in a table the rotation reaches after the settings.
    await withStoredSecrets(current, createSecretBox(newKey()), async (freshDb, url) => {
      const storedNow = async () => ({
        settings: (await adminQuery(`select name, value from setting where name in ('EMAIL', 'SYSTEM') order by name`, url)).rows,
        mfa: (await adminQuery(`select mfa_secret from principal where login_id = 'mfa-user'`, url)).rows[0].mfa_secret,
      });
      const before = await storedNow();
      await assert.rejects(rotateSecretKey(freshDb, current, createSecretBox(newKey())), SecretKeyMismatch);
      assert.deepEqual(await storedNow(), before);
      assert.deepEqual(before.settings.map((r) => r.name), ["EMAIL", "SYSTEM"]);
      assert.equal(current.open(before.settings[0].value.smtp.password), "smtp-pw");
      assert.equal(before.settings[1].value.encryptionKeyId, current.keyId);
      await checkSecretKey(freshDb, current);
    });
  });

  it("is rotated by the admin command once every server is stopped; a server with the old key then refuses to start", async () => {
    const fresh = await createTestDatabase();
    const dir = await mkdtemp(join(tmpdir(), "svc-rotate-"));
    const current = newKey();
    const env = { PG_URL: fresh.url, SVC_SECRET_KEY: current.toString("base64") };
    try {
      await adminQuery(`insert into setting (name, value) values ('AI', '{"apiKey": "${createSecretBox(current).seal("sk-1")}"}')`, fresh.url);
      const bad = await runUntilExit({ entry: "admin.ts", args: ["rotate-secret-key", join(dir, "missing.key")], env });
      assert.equal(bad.exit.code, 1, bad.server.output());
      const nextKey = newKey();
      const keyFile = join(dir, "next.key");
      await writeFile(keyFile, nextKey.toString("base64"));

      const server = await spawnServer({ entry: "api/main.ts", args: ["--port", "0"], env });
      const refused = await runUntilExit({ entry: "admin.ts", args: ["rotate-secret-key", keyFile], env });
      assert.equal(refused.exit.code, 1, refused.server.output());
      assert.match(refused.server.output(), /server connection\(s\) to the metadata store are open: stop every server/);
      assert.deepEqual(await server.stop(), { code: 0, signal: null }, server.output());

      const { exit, server: command } = await runUntilExit({ entry: "admin.ts", args: ["rotate-secret-key", keyFile], env });
      assert.equal(exit.code, 0, command.output());
      assert.match(command.output(), /re-sealed 1 stored secrets/);
      const stored = (await adminQuery(`select value from setting where name = 'AI'`, fresh.url)).rows[0].value;
      assert.equal(createSecretBox(nextKey).open(stored.apiKey), "sk-1");

      const oldKey = await runUntilExit({ entry: "api/main.ts", args: ["--port", "0"], env });
      assert.equal(oldKey.exit.code, 1, oldKey.server.output());
      assert.match(oldKey.server.output(), new RegExp(`key for secrets at rest \\(id ${createSecretBox(current).keyId}\\) is not the workspace's key \\(id ${createSecretBox(nextKey).keyId}\\)`));
      const restarted = await spawnServer({ entry: "api/main.ts", args: ["--port", "0"], env: { ...env, SVC_SECRET_KEY: nextKey.toString("base64") } });
      assert.deepEqual(await restarted.stop(), { code: 0, signal: null }, restarted.output());
    } finally {
      await killAllServers();
      await fresh.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("is remembered at the first start and a different key stops the start", async () => {
    const box = createSecretBox(newKey());
    await checkSecretKey(db, box);
    await checkSecretKey(db, box);
    await assert.rejects(checkSecretKey(db, createSecretBox(newKey())), (e: Error) => e instanceof ConfigError && e.message.includes(box.keyId));
  });
});
