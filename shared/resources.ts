// What a process opens at start-up: openCore for every process (the worker
// too), openResources for those that serve the API. Each piece is registered
// to close (in reverse order) when the process stops or its start fails.
import {
  type ChangeFeed,
  countJobs,
  createChangeFeed,
  createDb,
  createMetrics,
  createSecretBox,
  type Db,
  loadSecretKey,
  type Metrics,
  openStore,
  type ProcessContext,
  type SecretBox,
  type Store,
} from "./platform/index.ts";
import { checkSecretKey, createSettingCache, type SettingCache } from "./governance/index.ts";
import { seedQuickStart } from "./inventory/index.ts";
import { type AccessCache, bootstrapWorkspace, createAccessCache } from "./identity/index.ts";
import { ReadConnections } from "./sql-editor/index.ts";

export interface Resources {
  store: Store;
  db: Db;
  /** For short queries made while a call holds a transaction of `db` (see DbOptions.side). */
  sideDb: Db;
  settings: SettingCache;
  /** Change notices of rollouts and issues: one LISTEN connection for every watch stream. */
  changes: ChangeFeed;
  /** Sessions and IAM, read on every request: cached, dropped by change notices. */
  access: AccessCache;
  metrics: Metrics;
  /** Seals and opens credentials stored at rest (contract §9.4). */
  secrets: SecretBox;
  /** The SQL Editor's PostgreSQL connections to targets, kept between reads (docs/decisions/0123). */
  readConnections: ReadConnections;
}

/** What every process opens first: the secret box, the store and its pool (checked against each other), the metrics. */
export type CoreResources = Pick<Resources, "store" | "db" | "secrets" | "metrics">;

export async function openCore({ config, logger, onStop }: ProcessContext): Promise<CoreResources> {
  const secrets = createSecretBox(await loadSecretKey(config, logger));
  const store = await openStore(config, logger);
  onStop(() => store.close());
  const db = await createDb(store.url, logger);
  onStop(() => db.end());
  await checkSecretKey(db, secrets);
  const metrics = createMetrics({ threadPoolSize: config.threadPoolSize, countJobs: () => countJobs(db) });
  return { store, db, secrets, metrics };
}

export async function openResources(context: ProcessContext): Promise<Resources> {
  const { config, logger, onStop } = context;
  const { store, db, secrets, metrics } = await openCore(context);
  await bootstrapWorkspace(db, { loginId: config.bootstrapAdminLoginId, password: config.bootstrapAdminPassword }, logger);
  if (store.embedded) await seedQuickStart({ db, secrets, logger, embedded: store.embedded, ownerLoginId: config.bootstrapAdminLoginId });
  const sideDb = await createDb(store.url, logger, { maxPoolSize: 5, side: true });
  onStop(() => sideDb.end());
  const settings = createSettingCache(store.url, sideDb, logger);
  onStop(() => settings.close());
  const changes = createChangeFeed(store.url, logger);
  onStop(() => changes.close());
  const access = createAccessCache(store.url, db, logger);
  onStop(() => access.close());
  const readConnections = new ReadConnections();
  onStop(() => readConnections.close());
  return { store, db, sideDb, settings, changes, access, metrics, secrets, readConnections };
}
