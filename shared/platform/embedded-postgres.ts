// Embedded PostgreSQL for the quick start and for tests when PG_URL is unset
// (contract §15.8). It lives in <data>/pg and listens on 127.0.0.1 only; a
// server left running by an unclean stop is adopted. As root it runs as an
// unprivileged account (embedded-postgres-account.ts).
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import pg from "pg";
import { clusterFolder, isRoot, reachableBinaries, serverAccount } from "./embedded-postgres-account.ts";
import {
  initialiseCluster,
  isAlive,
  livePostmaster,
  packagedBinaries,
  startServer,
  stopPostmaster,
  SUPERUSER,
  type Account,
  type Binaries,
} from "./embedded-postgres-process.ts";
import type { Logger } from "./logger.ts";

export interface EmbeddedPostgres {
  /** Connection string of the `svc` database. */
  url: string;
  /** Connection string of the server's `postgres` database, as its superuser. */
  superuserUrl: string;
  /** Stops the server if this process started (or adopted) it. */
  stop(): Promise<void>;
}

const DATABASE = "svc";

export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<EmbeddedPostgres> {
  await mkdir(dataDir, { recursive: true });
  // As root, the server's own account passes through the data folder (it
  // cannot list it; the key and the password inside stay the owner's).
  if (isRoot()) await chmod(dataDir, 0o711);
  const password = await readOrCreatePassword(join(dataDir, "pg-password"));
  const ownerFile = join(dataDir, "pg-owner.pid");
  const { pgDir, binaries, account } = await placeCluster(dataDir, logger);
  const running = await livePostmaster(pgDir);
  let stop: () => Promise<void>;
  let port: number;
  if (running) {
    port = running.port;
    // Adopt a server whose owner is gone (an unclean stop); share one that a
    // live process of ours still runs.
    const owner = await readOwner(ownerFile);
    const orphan = owner === undefined || !isAlive(owner);
    logger.warn({ pid: running.pid, port, orphan }, "reusing the embedded PostgreSQL left running by an earlier start");
    if (orphan) await writeFile(ownerFile, `${process.pid}\n`);
    stop = orphan ? () => stopPostmaster(running.pid) : async () => {};
  } else {
    port = await freePort();
    if (!existsSync(join(pgDir, "PG_VERSION"))) await initialiseCluster(binaries, pgDir, password, account);
    const server = await startServer(binaries, pgDir, port, account, logger);
    await writeFile(ownerFile, `${process.pid}\n`);
    stop = () => server.stop();
  }
  const base = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  await ensureDatabase(`${base}/postgres`);
  logger.info({ dataDir: pgDir, port }, `using embedded PostgreSQL at ${pgDir}; set PG_URL for production`);
  return { url: `${base}/${DATABASE}`, superuserUrl: `${base}/postgres`, stop };
}

/** The cluster's folder, the binaries and the account to run them as (root only: PostgreSQL refuses root). */
async function placeCluster(dataDir: string, logger: Logger): Promise<{ pgDir: string; binaries: Binaries; account?: Account }> {
  const packaged = packagedBinaries();
  if (!isRoot()) return { pgDir: join(dataDir, "pg"), binaries: packaged };
  const account = await serverAccount(join(dataDir, "pg"));
  const binaries = await reachableBinaries(packaged, account, logger);
  return { pgDir: await clusterFolder(dataDir, account, logger), binaries, account };
}

/** The password kept in the file, generated (and written owner-only) on first use. */
export async function readOrCreatePassword(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const password = randomBytes(24).toString("base64url");
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

async function readOwner(file: string): Promise<number | undefined> {
  if (!existsSync(file)) return undefined;
  const pid = Number((await readFile(file, "utf8")).trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function ensureDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [DATABASE]);
    if (!rowCount) await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end();
  }
}
