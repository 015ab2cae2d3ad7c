// An instance's data sources (contract §9.3): exactly one ADMIN, at most one
// READ_ONLY, each a host, port and account. Passwords are input-only and
// sealed at rest (§3.4, §9.4): a data source written without its password
// keeps the stored one (matched by id), an empty one clears it.
import { z } from "zod";
import { checkExtraOptions } from "../engine/connect-options.ts";
import type { ConnectionConfig, Engine, SslMode } from "../engine/target.ts";
import { invalidArgument, quoted, type SecretBox } from "../../platform/index.ts";

export type DataSourceType = "ADMIN" | "READ_ONLY";

export const storedDataSource = z.object({
  id: z.string(),
  type: z.enum(["ADMIN", "READ_ONLY"]),
  host: z.string(),
  port: z.number(),
  username: z.string(),
  /** Sealed; "" when the account has no password. */
  password: z.string(),
  database: z.string(),
  sslMode: z.enum(["DISABLE", "REQUIRE", "VERIFY_FULL"]),
  sslCa: z.string(),
  extraOptions: z.record(z.string(), z.string()),
});

export type StoredDataSource = z.infer<typeof storedDataSource>;

/** A data source as a request writes it: the password in clear, undefined when not sent. */
export interface DataSourceDraft {
  id: string;
  type: DataSourceType | undefined;
  host: string;
  port: number;
  username: string;
  password: string | undefined;
  database: string;
  sslMode: SslMode | undefined;
  sslCa: string;
  extraOptions: Record<string, string>;
}

const PATH = "instance.data_sources";
const ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$/;
const DEFAULT_PORT: Record<Engine, number> = { POSTGRES: 5432, MYSQL: 3306 };
const DEFAULT_ID: Record<DataSourceType, string> = { ADMIN: "admin", READ_ONLY: "read-only" };

/**
 * The data sources to store: checked, defaults filled in, passwords sealed;
 * a password the draft leaves undefined is taken from the stored data source
 * with the same id (an update).
 */
export function checkedDataSources(engine: Engine, drafts: readonly DataSourceDraft[], secrets: SecretBox, stored: readonly StoredDataSource[] = []): StoredDataSource[] {
  const sources = drafts.map((draft, i) => checkedDataSource(engine, draft, `${PATH}[${i}]`, secrets, stored));
  const admins = sources.filter((s) => s.type === "ADMIN").length;
  if (admins !== 1) throw invalidArgument(`${PATH}: an instance needs exactly one ADMIN data source, got ${admins}`);
  if (sources.filter((s) => s.type === "READ_ONLY").length > 1) throw invalidArgument(`${PATH}: an instance has at most one READ_ONLY data source`);
  sources.forEach((source, i) => {
    if (sources.findIndex((s) => s.id === source.id) !== i) throw invalidArgument(`${PATH}[${i}].id: ${quoted(source.id)} is used by another data source`);
  });
  return sources;
}

function checkedDataSource(engine: Engine, draft: DataSourceDraft, path: string, secrets: SecretBox, stored: readonly StoredDataSource[]): StoredDataSource {
  if (!draft.type) throw invalidArgument(`${path}.type is required: ADMIN or READ_ONLY`);
  const id = draft.id.trim() || DEFAULT_ID[draft.type];
  if (!ID.test(id)) throw invalidArgument(`${path}.id: ${quoted(draft.id)} must be letters, digits, ".", "_" or "-" (at most 64), starting with a letter or digit`);
  const host = draft.host.trim();
  if (!host || /\s/.test(host)) throw invalidArgument(`${path}.host is required (a host name or IP address)`);
  const port = draft.port === 0 ? DEFAULT_PORT[engine] : draft.port;
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw invalidArgument(`${path}.port must be between 1 and 65535, got ${draft.port}`);
  const username = draft.username.trim();
  if (!username) throw invalidArgument(`${path}.username is required`);
  const source: Omit<StoredDataSource, "password"> = {
    id,
    type: draft.type,
    host,
    port,
    username,
    database: draft.database.trim(),
    sslMode: draft.sslMode ?? "DISABLE",
    sslCa: draft.sslCa.trim(),
    extraOptions: draft.extraOptions,
  };
  try {
    checkExtraOptions({ ...source, engine, password: "" });
  } catch (error) {
    throw invalidArgument(`${path}.${(error as Error).message}`);
  }
  const kept = stored.find((s) => s.id === id)?.password ?? "";
  const password = draft.password === undefined ? kept : draft.password === "" ? "" : secrets.seal(draft.password);
  return { ...source, password };
}

/** The data source of the type; every stored instance has its ADMIN one. */
export function dataSourceOf(sources: readonly StoredDataSource[], type: DataSourceType): StoredDataSource | undefined {
  return sources.find((s) => s.type === type);
}

/** How to connect through a stored data source, the password opened. */
export function connectionConfig(engine: Engine, source: StoredDataSource, secrets: SecretBox): ConnectionConfig {
  return {
    engine,
    host: source.host,
    port: source.port,
    username: source.username,
    password: source.password ? secrets.open(source.password) : "",
    database: source.database,
    sslMode: source.sslMode,
    sslCa: source.sslCa,
    extraOptions: source.extraOptions,
  };
}
