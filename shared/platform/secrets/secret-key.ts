// Where the key for secrets at rest comes from (contract §9.4): the file of
// --secret-key-file, else SVC_SECRET_KEY; both hold 32 bytes in base64.
// With neither, the embedded quick start generates one into the data folder;
// a server on an external PG_URL refuses to start, because a key made up on
// one replica would not open the secrets the others wrote.
import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ConfigError, type Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { KEY_BYTES } from "./secret-box.ts";

export const GENERATED_KEY_FILE = "secret.key";

export async function loadSecretKey(config: Config, logger: Logger): Promise<Buffer> {
  if (config.secretKeyFile) return parseSecretKey(await readKeyFile(config.secretKeyFile), `--secret-key-file ${config.secretKeyFile}`);
  if (config.secretKey) return parseSecretKey(config.secretKey, "SVC_SECRET_KEY");
  if (config.pgUrl) {
    throw new ConfigError(
      "no key for secrets at rest: give --secret-key-file (or SVC_SECRET_KEY) with 32 random bytes in base64, e.g. `openssl rand -base64 32`; every replica needs the same key",
    );
  }
  return readOrCreateGeneratedKey(join(config.dataDir, GENERATED_KEY_FILE), logger);
}

export function parseSecretKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, "base64");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES) {
    throw new ConfigError(`${source}: expected ${KEY_BYTES} bytes in base64 (e.g. \`openssl rand -base64 32\`)`);
  }
  return key;
}

async function readKeyFile(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigError(`--secret-key-file: cannot read ${path}: ${(error as Error).message}`);
  }
}

async function readOrCreateGeneratedKey(path: string, logger: Logger): Promise<Buffer> {
  try {
    return parseSecretKey(await readFile(path, "utf8"), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  // The key is read before the embedded store creates the data folder.
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  // Written aside and linked into place, so a process starting at the same
  // time reads either no key or a whole one, and exactly one key wins.
  const draft = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(draft, `${randomBytes(KEY_BYTES).toString("base64")}\n`, { mode: 0o600 });
  try {
    await link(draft, path);
    logger.info({ file: path }, "generated the key for secrets at rest; back it up with the data folder");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await rm(draft, { force: true });
  }
  return parseSecretKey(await readFile(path, "utf8"), path);
}
