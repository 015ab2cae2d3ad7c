// `npm run admin -- <command> <login_id> [flags]`: local recovery on the
// metadata store for a lost administrator (contract §4.7). It uses the same
// store flags as the server (PG_URL, or --data for the embedded store; stop
// the server first when it runs the embedded store).
//   reset-password <login_id>  prints a new one-time password (changed at next sign-in)
//   unlock <login_id>          lifts a sign-in lock
import { ConfigError, loadConfig } from "./shared/platform/config.ts";
import { createDb } from "./shared/platform/db.ts";
import { createLogger } from "./shared/platform/logger.ts";
import { parseLoginId } from "./shared/platform/names.ts";
import { openStore } from "./shared/platform/store.ts";
import { resetPasswordLocally, unlockLocally } from "./shared/user/recovery.ts";

const USAGE = "usage: npm run admin -- reset-password|unlock <login_id> [--data DIR]";
const COMMANDS = {
  "reset-password": async (db, loginId) => {
    const password = await resetPasswordLocally(db, loginId);
    return `new one-time password for "${loginId}": ${password}\nit must be changed at the next sign-in; all sessions of "${loginId}" have ended`;
  },
  unlock: async (db, loginId) => ((await unlockLocally(db, loginId)) ? `"${loginId}" is unlocked` : `"${loginId}" was not locked`),
} satisfies Record<string, (db: Awaited<ReturnType<typeof createDb>>, loginId: string) => Promise<string>>;

// The command and its login id may stand anywhere among the flags.
const args = process.argv.slice(2);
const at = args.findIndex((arg) => Object.hasOwn(COMMANDS, arg));
const run = at >= 0 ? COMMANDS[args[at] as keyof typeof COMMANDS] : undefined;
const loginIdText = args[at + 1];
if (!run || !loginIdText) fail(USAGE, 2);
const flags = [...args.slice(0, at), ...args.slice(at + 2)];

let config;
try {
  config = loadConfig(flags, process.env);
} catch (error) {
  if (error instanceof ConfigError) fail(`admin: ${error.message}`, 2);
  throw error;
}
const logger = createLogger({ json: config.jsonLogging, debug: config.debug });
const store = await openStore(config, logger);
const db = await createDb(store.url, logger, { maxPoolSize: 1 });
try {
  process.stdout.write(`${await run(db, parseLoginId(loginIdText, "login_id"))}\n`);
} catch (error) {
  process.exitCode = 1;
  process.stderr.write(`admin: ${(error as Error).message}\n`);
} finally {
  await db.end();
  await store.close();
}

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}
