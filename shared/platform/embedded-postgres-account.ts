// Where and as whom the embedded PostgreSQL runs when this process is root.
// PostgreSQL refuses to run as root, so the server runs as an unprivileged
// account of its own, and that account must reach the binaries and the
// cluster. A clone in a folder others cannot enter (root's home, 0700) hides
// both: then the binaries are copied, and the cluster is kept, under
// RUNTIME_HOME, with <data>/pg a link to it. Nothing else on the machine
// changes its permissions.
import { execFile, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chown, cp, lstat, mkdir, readFile, readlink, realpath, rename, rm, stat, symlink } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { livePostmaster, stopPostmaster, type Account, type Binaries } from "./embedded-postgres-process.ts";
import type { Logger } from "./logger.ts";

/** The account created to run embedded servers; an existing cluster keeps running as its owner. */
export const SERVER_ACCOUNT = "change-audit-db";
export const RUNTIME_HOME = "/var/lib/change-audit";

const run = promisify(execFile);

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** The account that runs the cluster in `pgDir`: its owner when it exists, else SERVER_ACCOUNT (created when missing). */
export async function serverAccount(pgDir: string): Promise<Account> {
  if (existsSync(join(pgDir, "PG_VERSION"))) {
    const { uid, gid } = await stat(pgDir);
    if (uid === 0) throw new Error(`the embedded PostgreSQL's folder ${pgDir} belongs to root, and PostgreSQL does not run as root; give it to an unprivileged account (chown -R)`);
    return { name: `uid ${uid}`, uid, gid };
  }
  return (await lookUp(SERVER_ACCOUNT)) ?? (await createAccount(SERVER_ACCOUNT));
}

/** Whether the account can enter `path` (every folder on the way searchable). */
export async function canReach(account: Account, path: string): Promise<boolean> {
  const probe = spawn("test", ["-x", path], { uid: account.uid, gid: account.gid, stdio: "ignore" });
  return new Promise((resolve) => {
    probe.once("error", () => resolve(false));
    probe.once("exit", (code) => resolve(code === 0));
  });
}

/** The binaries, copied where the account can run them when it cannot reach the packaged ones. */
export async function reachableBinaries(packaged: Binaries, account: Account, logger: Logger): Promise<Binaries> {
  if (await canReach(account, join(packaged, "bin", "postgres"))) return packaged;
  const version = JSON.parse(await readFile(join(packaged, "..", "package.json"), "utf8")).version as string;
  const copy = join(RUNTIME_HOME, `postgres-${version}`);
  if (existsSync(join(copy, "bin", "postgres"))) return copy;
  await runtimeHome();
  // Copied aside and renamed into place, so that a start beside us finds a whole copy or none.
  const draft = `${copy}.${randomBytes(4).toString("hex")}`;
  await cp(packaged, draft, { recursive: true, verbatimSymlinks: true });
  await rename(draft, copy).catch(async (error: NodeJS.ErrnoException) => {
    await rm(draft, { recursive: true, force: true });
    if (!existsSync(join(copy, "bin", "postgres"))) throw error;
  });
  logger.info({ binaries: copy }, `copied the embedded PostgreSQL's programs to ${copy}: account ${account.name} cannot reach ${packaged}`);
  return copy;
}

/**
 * The cluster folder for `<data>/pg`, made for the account when new: that
 * folder itself when the account can reach it; else a folder under
 * RUNTIME_HOME that <data>/pg links to. A link already there is followed.
 */
export async function clusterFolder(dataDir: string, account: Account, logger: Logger): Promise<string> {
  const pgDir = join(dataDir, "pg");
  const entry = await lstat(pgDir).catch(() => undefined);
  if (entry?.isSymbolicLink()) return readlink(pgDir);
  if (entry) return pgDir;
  const folder = (await canReach(account, dataDir)) ? pgDir : await relocatedFolder(dataDir);
  await mkdir(folder, { mode: 0o700 });
  await chown(folder, account.uid, account.gid);
  if (folder !== pgDir) {
    await symlink(folder, pgDir);
    logger.info({ cluster: folder }, `the embedded PostgreSQL keeps its files in ${folder} (linked from ${pgDir}): account ${account.name} cannot reach ${dataDir}`);
  }
  return folder;
}

/**
 * The folder under RUNTIME_HOME for a data folder, empty. What is there was
 * left by a data folder of the same path since deleted (its link is gone),
 * so it goes, its server first.
 */
async function relocatedFolder(dataDir: string): Promise<string> {
  const id = createHash("sha256").update(await realpath(dataDir)).digest("hex").slice(0, 16);
  const folder = join(await runtimeHome("clusters"), id);
  const orphan = await livePostmaster(folder);
  if (orphan) await stopPostmaster(orphan.pid);
  await rm(folder, { recursive: true, force: true });
  return folder;
}

/** A folder under RUNTIME_HOME that every account may enter. */
async function runtimeHome(...segments: string[]): Promise<string> {
  const folder = join(RUNTIME_HOME, ...segments);
  await mkdir(folder, { recursive: true, mode: 0o755 });
  return folder;
}

async function lookUp(name: string): Promise<Account | undefined> {
  try {
    const [uid, gid] = await Promise.all([run("id", ["-u", name]), run("id", ["-g", name])]);
    return { name, uid: Number(uid.stdout), gid: Number(gid.stdout) };
  } catch {
    return undefined;
  }
}

async function createAccount(name: string): Promise<Account> {
  try {
    await run("useradd", ["--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", name]);
  } catch (error) {
    // Another start may have created it meanwhile.
    const account = await lookUp(name);
    if (account) return account;
    throw new Error(
      `running as root, the embedded PostgreSQL needs an unprivileged account and could not create "${name}" (${(error as Error).message.trim()}); ` +
        `create one (useradd --system ${name}), run as another user, or set PG_URL`,
    );
  }
  const account = await lookUp(name);
  if (!account) throw new Error(`created the account "${name}" but cannot find it`);
  return account;
}
