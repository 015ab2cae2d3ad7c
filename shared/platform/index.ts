// The platform capability's public surface: what other capabilities and the
// processes use. Everything else under shared/platform/ is private to it.
export { type Config, ConfigError, loadConfig, trustedProxyList } from "./config.ts";
export { createDb, type Db, ping, type Tx, withTransaction } from "./db.ts";
export { formatDuration } from "./duration.ts";
export { isEmailAddress, parseEmail, requireEmail } from "./email-address.ts";
export { DomainError, type ErrorCode, failedPrecondition, invalidArgument, notFound } from "./errors.ts";
export { type JobName, parseJobPayload } from "./jobs/catalog.ts";
export { addJob, countJobs, deletePermafailedJobs } from "./jobs/jobs.store.ts";
export { PoolPresence } from "./jobs/pool-presence.store.ts";
export { type Leadership, startLeaderElection } from "./leader.ts";
export { snakeCase } from "./list/field-name.ts";
export { type FilterFields, parseFilter } from "./list/filter.ts";
export { decodePageToken, encodePageToken, keysetPage, pageSize } from "./list/page.ts";
export { createLogger, type Logger } from "./logger.ts";
export { emailConfigured, type Mail, sendMail, type SmtpConfig } from "./mail/mailer.ts";
export { createMetrics, type Metrics } from "./metrics.ts";
export { normalizeLoginId, parseLoginId, parseResourceName, userName } from "./names.ts";
export { type ProcessContext, runProcess } from "./process.ts";
export { createSecretBox, type SecretBox } from "./secrets/secret-box.ts";
export { isStoredSecret } from "./secrets/secret-fields.ts";
export { loadSecretKey, parseSecretKey } from "./secrets/secret-key.ts";
export { openStore, type Store } from "./store.ts";
export { gitCommit, version } from "./version.ts";
export { type ChangeFeed, createChangeFeed } from "./watch/change-feed.ts";
export { watchResource } from "./watch/watch-resource.ts";
