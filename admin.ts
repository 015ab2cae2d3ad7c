// `npm run admin -- <command> <operand> [flags]`: local recovery and upkeep
// on the metadata store (contract §4.7, §9.4). It uses the same
// store flags as the server (PG_URL, or --data for the embedded store; stop
// the server first when it runs the embedded store).
//   reset-password <login_id>  prints a new one-time password (changed at next sign-in)
//   reset-mfa <login_id>       clears the second factor and recovery codes (enrol again)
//   unlock <login_id>          lifts a sign-in lock
//   rotate-secret-key <file>   re-seals stored credentials with the key in <file> (contract §9.4);
//                              stop every server first, it refuses while servers are connected
import { readFile } from "node:fs/promises";
import {
  type Config,
  ConfigError,
  createDb,
  createLogger,
  createSecretBox,
  type Db,
  loadConfig,
  loadSecretKey,
  type Logger,
  openStore,
  parseLoginId,
  parseSecretKey,
} from "./shared/platform/index.ts";
import { rotateSecretKey } from "./shared/governance/index.ts";
import { resetMfaLocally, resetPasswordLocally, unlockLocally } from "./shared/identity/index.ts";

const USAGE = [
  "usage: npm run admin -- reset-password|reset-mfa|unlock <login_id> [--data DIR]",
  "       npm run admin -- rotate-secret-key <new_key_file> [--data DIR]   (stop every server first)",
].join("\n");

interface CommandContext {
  db: Db;
  config: Config;
  logger: Logger;
}

const forUser =
  (act: (db: Db, loginId: string) => Promise<string>) =>
  ({ db }: CommandContext, operand: string): Promise<string> =>
    act(db, parseLoginId(operand, "login_id"));

const COMMANDS = {
  "reset-password": forUser(async (db, loginId) => {
    const password = await resetPasswordLocally(db, loginId);
    return `new one-time password for "${loginId}": ${password}\nit must be changed at the next sign-in; all sessions of "${loginId}" have ended`;
  }),
  "reset-mfa": forUser(async (db, loginId) => {
    const wasEnabled = await resetMfaLocally(db, loginId);
    const done = wasEnabled ? `the second factor of "${loginId}" is reset` : `"${loginId}" had no second factor`;
    return `${done}; all sessions of "${loginId}" have ended; sign in with the password and enrol again`;
  }),
  unlock: forUser(async (db, loginId) => ((await unlockLocally(db, loginId)) ? `"${loginId}" is unlocked` : `"${loginId}" was not locked`)),
  "rotate-secret-key": async ({ db, config, logger }, keyFile) => {
    const current = createSecretBox(await loadSecretKey(config, logger));
    const next = createSecretBox(parseSecretKey(await readFile(keyFile, "utf8"), keyFile));
    const count = await rotateSecretKey(db, current, next);
    return `re-sealed ${count} stored secrets with key ${next.keyId}; start every server with the new key (${keyFile}) from now on`;
  },
} satisfies Record<string, (context: CommandContext, operand: string) => Promise<string>>;

// The command and its operand may stand anywhere among the flags.
const args = process.argv.slice(2);
const at = args.findIndex((arg) => Object.hasOwn(COMMANDS, arg));
const run = at >= 0 ? COMMANDS[args[at] as keyof typeof COMMANDS] : undefined;
const operand = args[at + 1];
if (!run || !operand) fail(USAGE, 2);
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
  process.stdout.write(`${await run({ db, config, logger }, operand)}\n`);
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
