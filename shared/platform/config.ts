// The only reader of argv and the environment. Everything else receives a Config.
import { BlockList, isIP } from "node:net";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { normalizeLoginId } from "./names.ts";

export interface Config {
  /** The API's port, or a standalone worker's ops port (PortRole). */
  port: number;
  dataDir: string;
  /** Connection string of the metadata store; undefined = embedded PostgreSQL. */
  pgUrl: string | undefined;
  externalUrl: string | undefined;
  jsonLogging: boolean;
  bootstrapAdminLoginId: string;
  bootstrapAdminPassword: string | undefined;
  ha: boolean;
  debug: boolean;
  trustedProxies: string[];
  maxBodyBytes: number;
  /** Requests per minute one signed-in principal may make to each replica (0 = no limit; contract §15.6). */
  rateLimitPerUser: number;
  secretKeyFile: string | undefined;
  /** The key for secrets at rest itself, base64 (SVC_SECRET_KEY; the file wins). */
  secretKey: string | undefined;
  /** libuv thread-pool size (UV_THREADPOOL_SIZE; Node's default is 4). */
  threadPoolSize: number;
  /** Notification webhooks may reach loopback, link-local and private addresses (contract §19.6; off by default). */
  webhookAllowPrivate: boolean;
  /** The web console's built files, served at / (contract §19.5; default web/dist). */
  consoleDir: string;
}

/**
 * Which port a process's --port means: the API's port (every API form and the
 * ops routes; `npm start` and the api process), or a standalone worker's ops
 * port, whose default leaves the API's free when both run on one host.
 */
export type PortRole = "api" | "worker";

export class ConfigError extends Error {
  override name = "ConfigError";
}

type FlagKind = "string" | "boolean";

// Flag name → kind. Each flag is also read from SVC_<FLAG> (flag wins).
const flags = {
  port: "string",
  data: "string",
  "external-url": "string",
  "enable-json-logging": "boolean",
  "bootstrap-admin-login-id": "string",
  "bootstrap-admin-password": "string",
  ha: "boolean",
  debug: "boolean",
  "trusted-proxies": "string",
  "max-body-bytes": "string",
  "rate-limit-per-user": "string",
  "secret-key-file": "string",
  "webhook-allow-private": "boolean",
  "console-dir": "string",
} as const satisfies Record<string, FlagKind>;

type FlagName = keyof typeof flags;
type Env = Record<string, string | undefined>;

const DEFAULT_TRUSTED_PROXIES = "127.0.0.1/32,::1/128";
const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
const DEFAULT_RATE_LIMIT_PER_USER = 600;

export function loadConfig(argv: readonly string[], env: Env, portRole: PortRole = "api"): Config {
  const raw = readFlags(argv, env);
  const text = (name: FlagName): string | undefined => {
    const value = raw[name];
    return typeof value === "string" ? value : undefined;
  };
  const bool = (name: FlagName): boolean => raw[name] === true;
  return {
    port: parsePort(text("port") ?? defaultPort(portRole, env)),
    dataDir: resolve(text("data") ?? "./data"),
    pgUrl: parsePgUrl(env.PG_URL || env.DATABASE_URL || undefined),
    externalUrl: parseExternalUrl(text("external-url")),
    jsonLogging: bool("enable-json-logging"),
    bootstrapAdminLoginId: parseLoginId(text("bootstrap-admin-login-id") ?? "admin"),
    bootstrapAdminPassword: text("bootstrap-admin-password") || undefined,
    ha: bool("ha"),
    debug: bool("debug"),
    trustedProxies: parseTrustedProxies(text("trusted-proxies") ?? DEFAULT_TRUSTED_PROXIES),
    maxBodyBytes: parseByteSize("--max-body-bytes", text("max-body-bytes")) ?? DEFAULT_MAX_BODY_BYTES,
    rateLimitPerUser: parseCount("--rate-limit-per-user", text("rate-limit-per-user")) ?? DEFAULT_RATE_LIMIT_PER_USER,
    secretKeyFile: text("secret-key-file") ? resolve(text("secret-key-file")!) : undefined,
    secretKey: env.SVC_SECRET_KEY || undefined,
    threadPoolSize: Number(env.UV_THREADPOOL_SIZE) || 4,
    webhookAllowPrivate: bool("webhook-allow-private"),
    consoleDir: resolve(text("console-dir") ?? "web/dist"),
  };
}

function readFlags(argv: readonly string[], env: Env): Partial<Record<FlagName, string | boolean>> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: Object.fromEntries(Object.entries(flags).map(([name, type]) => [name, { type }])),
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const values: Partial<Record<FlagName, string | boolean>> = {};
  for (const name of Object.keys(flags) as FlagName[]) {
    const fromFlag = parsed.values[name];
    const fromEnv = env[`SVC_${name.toUpperCase().replaceAll("-", "_")}`];
    if (fromFlag !== undefined) values[name] = fromFlag;
    else if (fromEnv !== undefined && fromEnv !== "") {
      values[name] = flags[name] === "boolean" ? parseEnvBool(name, fromEnv) : fromEnv;
    }
  }
  return values;
}

function parseEnvBool(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new ConfigError(`SVC_${name.toUpperCase().replaceAll("-", "_")}: expected true or false, got "${value}"`);
}

/** PORT is the platform's port of the web process (Heroku-like), so only the API takes it. */
function defaultPort(role: PortRole, env: Env): string {
  return role === "api" ? (env.PORT ?? "8080") : "8081";
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new ConfigError(`--port: expected an integer from 0 to 65535, got "${value}"`);
  }
  return port;
}

function parsePgUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError("PG_URL: not a valid URL (expected postgres://user:password@host:port/database)");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new ConfigError(`PG_URL: expected a postgres:// URL, got protocol "${url.protocol}"`);
  }
  return value;
}

function parseExternalUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`--external-url: not a valid URL: "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`--external-url: expected an http(s) URL, got "${value}"`);
  }
  return url.toString().replace(/\/$/, "");
}

function parseLoginId(value: string): string {
  const loginId = normalizeLoginId(value);
  if (!loginId) throw new ConfigError(`--bootstrap-admin-login-id: "${value}" is not a valid login id`);
  return loginId;
}

function parseTrustedProxies(value: string): string[] {
  const entries = value.split(",").map((s) => s.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split("/");
    const family = isIP(address ?? "");
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = family === 6 ? 128 : 32;
    const badPrefix = bits !== undefined && (!/^\d+$/.test(prefix!) || bits > maxBits);
    if (family === 0 || badPrefix || extra !== undefined) {
      throw new ConfigError(`--trusted-proxies: "${entry}" is not an IP address or CIDR`);
    }
  }
  return entries;
}

/** A BlockList that answers whether a peer address is a trusted proxy. */
export function trustedProxyList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of cidrs) {
    const [address, prefix] = entry.split("/") as [string, string | undefined];
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

function parseCount(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(count)) {
    throw new ConfigError(`${flag}: expected a whole number (0 turns it off), got "${value}"`);
  }
  return count;
}

const SIZE_UNITS: Record<string, number> = { "": 1, b: 1, kib: 1024, kb: 1000, mib: 1024 ** 2, mb: 1000 ** 2 };

function parseByteSize(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\s*([a-zA-Z]*)$/.exec(value.trim());
  const unit = SIZE_UNITS[match?.[2]?.toLowerCase() ?? "?"];
  const bytes = match && unit ? Number(match[1]) * unit : NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new ConfigError(`${flag}: expected a positive size in bytes (units KiB, MiB allowed), got "${value}"`);
  }
  return bytes;
}
