// buildApp wires the one Fastify server: every svc.v1 service as Connect,
// gRPC, gRPC-Web and REST through one interceptor chain, plus ops routes,
// directory sync (SCIM at /scim/v2) and the web console at /.
// It never listens; main does.
import { randomUUID } from "node:crypto";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { type ChangeFeed, type Config, type Db, type Logger, type Metrics, type SecretBox, trustedProxyList } from "../shared/platform/index.ts";
import { createAuditMirror, type SettingReader, withExternalUrlFlag } from "../shared/governance/index.ts";
import { type AccessCache, identitySettingRules } from "../shared/identity/index.ts";
import { inventorySettingRules } from "../shared/inventory/index.ts";
import type { ReadConnections } from "../shared/sql-editor/index.ts";
import { changeSettingRules } from "../shared/change/index.ts";
import { notifySettingRules, publishNotifications } from "../shared/notify/index.ts";
import { registerClientIp } from "./client-ip.ts";
import { setBaseSecurityHeaders } from "./console/console-headers.ts";
import { registerConsole } from "./console/console-routes.ts";
import { registerOpenApi } from "./openapi/openapi.ts";
import { registerDebugRoutes } from "./ops/debug.ts";
import { registerScimRoutes, SCIM_PREFIX } from "./scim/scim-routes.ts";
import { registerHealthRoutes } from "./ops/health.ts";
import { registerMetrics } from "./ops/metrics.ts";
import { createHybridServer } from "./server-factory.ts";
import { iamAuthorize, sessionAuthenticate } from "./access.ts";
import { actuatorService } from "./services/actuator-service.ts";
import { auditLogService } from "./services/audit-log-service.ts";
import { authService } from "./services/auth-service.ts";
import { databaseService } from "./services/database-service.ts";
import { groupService } from "./services/group-service.ts";
import { identityProviderService } from "./services/identity-provider-service.ts";
import { instanceService } from "./services/instance-service.ts";
import { planCheckRunService } from "./services/plan-check-run-service.ts";
import { issueService } from "./services/issue-service.ts";
import { maskingPolicyService } from "./services/masking-policy-service.ts";
import { planService } from "./services/plan-service.ts";
import { projectService } from "./services/project-service.ts";
import { releaseService } from "./services/release-service.ts";
import { revisionService } from "./services/revision-service.ts";
import { roleService } from "./services/role-service.ts";
import { rolloutService } from "./services/rollout-service.ts";
import { userService } from "./services/user-service.ts";
import { settingService } from "./services/setting-service.ts";
import { sqlService } from "./services/sql-service.ts";
import { workspaceService } from "./services/workspace-service.ts";
import { registerConnect } from "./transport/connect.ts";
import { createAclInterceptor, type Authorize } from "./transport/interceptors/acl.ts";
import { createAuditInterceptor } from "./transport/interceptors/audit.ts";
import { createAuthnInterceptor, type Authenticate } from "./transport/interceptors/authn.ts";
import { errorsInterceptor } from "./transport/interceptors/errors.ts";
import { inputCheckInterceptor } from "./transport/interceptors/input-check.ts";
import { logContextInterceptor } from "./transport/interceptors/log-context.ts";
import { loggingInterceptor } from "./transport/interceptors/logging.ts";
import { createRateLimitInterceptor } from "./transport/interceptors/rate-limit.ts";
import { createServerStreamInvoker } from "./transport/invoke-server-stream.ts";
import { createUnaryInvoker } from "./transport/invoke-unary.ts";
import { methodOptions } from "./transport/method-options.ts";
import { restBindings } from "./transport/rest/bindings.ts";
import { sendFastifyError } from "./transport/error-reply.ts";
import { frameworkErrorOptions, refuseWhileClosing } from "./transport/framework-errors.ts";
import { registerRestRoutes } from "./transport/rest/routes.ts";
import type { ServiceRegistration } from "./transport/services.ts";

export interface AppDeps {
  config: Config;
  db: Db;
  /** The side pool (DbOptions.side): counters that commit whatever the call does. */
  sideDb: Db;
  logger: Logger;
  metrics: Metrics;
  settings: SettingReader;
  /** Change notices of rollouts and issues, for the watch streams. */
  changes: ChangeFeed;
  /** Sessions and IAM, cached per process and dropped by change notices. */
  access: AccessCache;
  /** Seals and opens credentials stored at rest (contract §9.4). */
  secrets: SecretBox;
  /** The SQL Editor's PostgreSQL connections to targets, kept between reads; closed by their owner after the app. */
  readConnections: ReadConnections;
  /** Resolves access tokens (default: the sessions in the store). */
  authenticate?: Authenticate;
  /** Decides IAM permissions (default: the IAM policies in the store). */
  authorize?: Authorize;
  /** Answer unary Connect calls in-process (default); false leaves them to connect-fastify. */
  connectFastPath?: boolean;
  isLeader: () => boolean;
  startTime?: Date;
  /** Where the audit stdout mirror writes (default standard output). */
  auditStdout?: (line: string) => void;
}

export interface App {
  fastify: FastifyInstance;
  /** Starts the drain: /readyz answers 503 and long calls get the shutdown signal. */
  beginShutdown(): void;
}

const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(deps: AppDeps, registrations: ServiceRegistration[] = svcServices(deps)): Promise<App> {
  const stopPublishing = publishNotifications({ externalUrlFlag: deps.config.externalUrl });
  const shutdown = new AbortController();
  const fastify = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    serverFactory: (handler) => createHybridServer(handler as Parameters<typeof createHybridServer>[0]),
    bodyLimit: deps.config.maxBodyBytes,
    trustProxy: deps.config.trustedProxies,
    genReqId: correlationIdOf,
    logController: new LogController({ requestIdLogLabel: "correlation_id", disableRequestLogging: true }),
    ...frameworkErrorOptions,
  });
  fastify.addHook("onRequest", (req, reply, done) => {
    reply.header("x-correlation-id", req.id);
    setBaseSecurityHeaders(reply);
    done();
  });
  registerClientIp(fastify, trustedProxyList(deps.config.trustedProxies));
  fastify.setErrorHandler(sendFastifyError);
  await registerConsole(fastify, { dir: deps.config.consoleDir, logger: deps.logger });
  refuseWhileClosing(fastify);
  fastify.addHook("onClose", async () => stopPublishing());
  registerMetrics(fastify, deps.metrics);
  registerHealthRoutes(fastify, { db: deps.db, isShuttingDown: () => shutdown.signal.aborted });
  if (deps.config.debug) await registerDebugRoutes(fastify);

  for (const { service } of registrations) for (const method of service.methods) methodOptions(method); // fail fast on bad options
  const auditMirror = createAuditMirror(deps.settings, deps.auditStdout);
  const interceptors = [
    logContextInterceptor,
    loggingInterceptor,
    errorsInterceptor,
    createAuthnInterceptor(deps.authenticate ?? sessionAuthenticate(deps.db, deps.settings, deps.access.tokens)),
    createRateLimitInterceptor({ perMinute: deps.config.rateLimitPerUser, db: deps.sideDb, logger: deps.logger }),
    createAuditInterceptor({ db: deps.db, publish: auditMirror }),
    inputCheckInterceptor,
    createAclInterceptor(authorizerOf(deps)),
  ];
  const invoke = createUnaryInvoker(registrations, interceptors);
  const bindings = restBindings(registrations.map((r) => r.service));
  await registerOpenApi(fastify, bindings);
  const invokeStream = createServerStreamInvoker(registrations, interceptors);
  await fastify.register(async (rest) => registerRestRoutes(rest, bindings, { unary: invoke, serverStream: invokeStream, shutdownSignal: shutdown.signal }));
  await fastify.register(async (connect) =>
    registerConnect(connect, {
      registrations,
      interceptors,
      invoke: deps.connectFastPath === false ? undefined : invoke,
      maxBodyBytes: deps.config.maxBodyBytes,
      shutdownSignal: shutdown.signal,
    }),
  );
  await fastify.register(
    async (scim) =>
      registerScimRoutes(scim, {
        db: deps.db,
        publish: auditMirror,
        settings: withExternalUrlFlag(deps.settings, deps.config.externalUrl),
        secrets: deps.secrets,
        rateLimitPerMinute: deps.config.rateLimitPerUser,
      }),
    { prefix: SCIM_PREFIX },
  );
  return { fastify, beginShutdown: () => shutdown.abort() };
}

/** How permissions are decided: the given way, or the IAM policies in the store. */
function authorizerOf(deps: AppDeps): Authorize {
  return deps.authorize ?? iamAuthorize(deps.db, deps.access.iam);
}

/** Every svc.v1 service with its implementation. */
export function svcServices(deps: AppDeps): ServiceRegistration[] {
  const settings = withExternalUrlFlag(deps.settings, deps.config.externalUrl);
  return [
    authService({
      db: deps.db,
      sideDb: deps.sideDb,
      metrics: deps.metrics,
      settings,
      secrets: deps.secrets,
    }),
    userService({ db: deps.db, iam: deps.access.iam, settings, secrets: deps.secrets }),
    workspaceService({ db: deps.db, settings, authorize: authorizerOf(deps) }),
    projectService({ db: deps.db, iam: deps.access.iam, settings, secrets: deps.secrets, webhookAllowPrivate: deps.config.webhookAllowPrivate }),
    instanceService({ db: deps.db, secrets: deps.secrets }),
    databaseService({ db: deps.db, secrets: deps.secrets }),
    maskingPolicyService({ db: deps.db }),
    planService({ db: deps.db }),
    planCheckRunService({ db: deps.db }),
    issueService({ db: deps.db, iam: deps.access.iam, metrics: deps.metrics }),
    releaseService({ db: deps.db, settings, secrets: deps.secrets }),
    revisionService({ db: deps.db }),
    rolloutService({ db: deps.db, settings, changes: deps.changes }),
    settingService({
      db: deps.db,
      settings,
      secrets: deps.secrets,
      externalUrl: deps.config.externalUrl,
      webhookAllowPrivate: deps.config.webhookAllowPrivate,
      rules: [
        ...identitySettingRules(),
        ...inventorySettingRules(),
        ...changeSettingRules(),
        ...notifySettingRules({ allowPrivate: deps.config.webhookAllowPrivate }),
      ],
    }),
    auditLogService({ db: deps.db }),
    roleService({ db: deps.db }),
    identityProviderService({ db: deps.db, iam: deps.access.iam, settings, secrets: deps.secrets }),
    groupService({ db: deps.db }),
    sqlService({ db: deps.db, iam: deps.access.iam, settings, secrets: deps.secrets, connections: deps.readConnections }),
    actuatorService({
      workspaceFacts: deps.access.workspaceFacts,
      settings,
      ha: deps.config.ha,
      debug: deps.config.debug,
      startTime: deps.startTime ?? new Date(),
      isLeader: deps.isLeader,
    }),
  ];
}

/** The incoming X-Correlation-ID (or X-Request-ID) when well-formed, else a new one. */
function correlationIdOf(req: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = req.headers["x-correlation-id"] ?? req.headers["x-request-id"];
  return typeof incoming === "string" && CORRELATION_ID.test(incoming) ? incoming : randomUUID();
}
