// What every API-serving process opens at start-up; each piece is registered
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
import { checkSecretKey } from "./governance/index.ts";
import { seedQuickStart } from "./inventory/index.ts";
import { type AccessCache, bootstrapWorkspace, createAccessCache } from "./identity/index.ts";
import { createSettingCache, type SettingCache } from "./governance/index.ts";

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
}

export async function openResources(context: ProcessContext): Promise<Resources> {
  const { config, logger, onStop } = context;
  const secrets = createSecretBox(await loadSecretKey(config, logger));
  const store = await openStore(config, logger);
  onStop(() => store.close());
  const db = await createDb(store.url, logger);
  onStop(() => db.end());
  await checkSecretKey(db, secrets);
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
  const metrics = createMetrics({ threadPoolSize: config.threadPoolSize, countJobs: () => countJobs(db) });
  return { store, db, sideDb, settings, changes, access, metrics, secrets };
}
