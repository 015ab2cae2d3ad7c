// The platform capability's public surface: what other capabilities and the
// processes use. Everything else under shared/platform/ is private to it.
export { listenToChannel } from "./channel-listener.ts";
export { CHUNK_BYTES, ChunkWriter } from "./chunk-writer.ts";
export { type Config, ConfigError, loadConfig, type PortRole, trustedProxyList } from "./config.ts";
export { APPLICATION_NAME, countRow, createDb, type Db, ping, preparedCommand, serialIdRow, textIdRow, type Tx } from "./db.ts";
export { commitBatch, withTransaction } from "./transaction.ts";
export { formatDuration, parseDuration } from "./duration.ts";
export { type DomainEvent, emitEvent, type EventSubscriber, type NewDomainEvent, subscribeToEvents } from "./events.ts";
export { isEmailAddress, parseEmail, requireEmail } from "./email-address.ts";
export { readOrCreatePassword } from "./embedded-postgres.ts";
export {
  aborted,
  alreadyExists,
  canceled,
  deadlineExceeded,
  DomainError,
  type ErrorCode,
  failedPrecondition,
  invalidArgument,
  notFound,
  permissionDenied,
  quoted,
  resourceExhausted,
  unauthenticated,
  unavailable,
} from "./errors.ts";
export { type JobName, type JobPayload, jobCorrelationId, NOTIFY_DELIVERIES_PER_JOB, parseJobPayload, TASK_RUN_JOB_KEY_PREFIX } from "./jobs/catalog.ts";
export { addJob, addKeyedJobs, addKeyedJobsSelected, countJobs, deletePermafailedJobs, keyedJobsAdding } from "./jobs/jobs.store.ts";
export { PoolPresence, unlockJobsOfGonePools } from "./jobs/pool-presence.store.ts";
export { type Leadership, startLeaderElection } from "./leader.ts";
export { jsonName, snakeCase } from "./list/field-name.ts";
export { sqlOperator } from "./list/filter-comparison.store.ts";
export { type FilterFields, type FilterTerm, parseFilter, parseRfc3339 } from "./list/filter.ts";
export { afterNewest, newestFirst, pageTimeColumn, withPageTime } from "./list/newest-first.store.ts";
export { parseOrderBy } from "./list/order-by.ts";
export { decodePageToken, encodePageToken, keysetPage, type Page, type PageKey, type PageRequest, pageSize } from "./list/page.ts";
export { maskFields, type MaskSpec } from "./list/update-mask.ts";
export { userFilterValue } from "./list/user-filter-value.ts";
export {
  BOOTSTRAP_LOCK,
  RATE_LIMIT_LOCK_CLASS,
  ROLLOUT_SLOT_LOCK_CLASS,
  TARGET_DATABASE_LOCK_CLASS,
  TASK_RUN_LOCK_CLASS,
} from "./locks.ts";
export { addLogFields, currentCorrelationId, type LogFields, withLogFields, withNewCorrelationId } from "./log-context.ts";
export { createLogger, type Logger } from "./logger.ts";
export { emailConfigured, type Mail, sendMail, type SmtpConfig } from "./mail/mailer.ts";
export { createMetrics, exposition, type Metrics } from "./metrics.ts";
export { type CachePart, createNoticeCache, type NoticeCache } from "./notice-cache.ts";
export { checkRequestId, normalizeLoginId, parseLoginId, parseResourceName, RESOURCE_ID_PATTERN, userName } from "./names.ts";
export { type OpsServer, startOpsServer } from "./ops/ops-server.ts";
export { checkReadiness, type Readiness, readinessReply } from "./ops/readiness.ts";
export { type ProcessContext, runProcess } from "./process.ts";
export { findByRequest, oldRequestUse } from "./request-id.store.ts";
export { deleteBeyondRetention } from "./retention.ts";
export { createSecretBox, isSealed, type SecretBox } from "./secrets/secret-box.ts";
export { isStoredSecret } from "./secrets/secret-fields.ts";
export { loadSecretKey, parseSecretKey } from "./secrets/secret-key.ts";
export { SESSION_KEEPALIVE_OPTIONS } from "./session-keepalive.ts";
export { openStore, type Store } from "./store.ts";
export { gitCommit, version } from "./version.ts";
export { type ChangeFeed, createChangeFeed } from "./watch/change-feed.ts";
export { noticeChange } from "./watch/change-notice.store.ts";
export { watchResource } from "./watch/watch-resource.ts";
