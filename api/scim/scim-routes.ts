// Directory sync: SCIM 2.0 (RFC 7643, 7644) at /scim/v2 for Okta, Microsoft
// Entra ID and other directories (contract §5.4, §19.4). A protocol of its
// own beside the RPCs, in its own encapsulated Fastify context: JSON bodies
// as application/scim+json or application/json (within --max-body-bytes),
// answers as application/scim+json, errors as SCIM Error messages. The app's
// correlation id and client address apply as on every route. Every change
// runs in shared/scim with its audit record (actor `scim`).
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type Logger, notFound } from "../../shared/platform/index.ts";
import {
  createScimGroup,
  createScimUser,
  deleteScimGroup,
  deleteScimUser,
  getScimGroup,
  getScimUser,
  type JsonObject,
  listResponse,
  parseListQuery,
  parseProjection,
  patchScimGroup,
  patchScimUser,
  type QueryParameters,
  replaceScimGroup,
  replaceScimUser,
  resourceTypes,
  schemas,
  type ScimCall,
  type ScimStore,
  searchScimGroups,
  searchScimUsers,
  serviceProviderConfig,
} from "../../shared/identity/index.ts";
import { readWorkspaceProfile } from "../../shared/governance/index.ts";
import { scimAccessHook, type ScimAccessDeps } from "./scim-access.ts";
import { refuseBrokenScimInput } from "./scim-input.ts";
import { sendScim, sendScimError, sendScimFailure, sendScimFastifyError } from "./scim-reply.ts";

export const SCIM_PREFIX = "/scim/v2";

export interface ScimDeps extends ScimAccessDeps, ScimStore {}

interface Answer {
  status: number;
  body?: JsonObject;
  location?: string;
}

type Handler = (req: FastifyRequest, call: ScimCall) => Promise<Answer>;

const ok = (body: JsonObject): Answer => ({ status: 200, body });
const created = (body: JsonObject): Answer => ({ status: 201, body, location: String((body.meta as JsonObject).location) });
const NO_CONTENT: Answer = { status: 204 };
const params = (req: FastifyRequest) => req.params as { id: string };
const query = (req: FastifyRequest) => req.query as QueryParameters;

export async function registerScimRoutes(app: FastifyInstance, deps: ScimDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  const json = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser(["application/scim+json", "application/json"], { parseAs: "string" }, json);
  app.setErrorHandler(sendScimFastifyError);
  app.setNotFoundHandler((req, reply) => sendScimError(reply, 404, `no SCIM endpoint ${req.method} ${req.url.split("?")[0]}`));
  app.addHook("onRequest", scimAccessHook(deps));
  app.addHook("preHandler", refuseBrokenScimInput);

  const route = (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", url: string, handler: Handler) =>
    app.route({ method, url, handler: (req, reply) => answer(deps, req, reply, handler) });

  route("GET", "/ServiceProviderConfig", async (_req, call) => ok(serviceProviderConfig(call.baseUrl)));
  route("GET", "/ResourceTypes", async (_req, call) => ok(discoveryList(resourceTypes(call.baseUrl))));
  route("GET", "/ResourceTypes/:id", async (req, call) => discoveryEntry(resourceTypes(call.baseUrl), params(req).id));
  route("GET", "/Schemas", async (_req, call) => ok(discoveryList(schemas(call.baseUrl))));
  route("GET", "/Schemas/:id", async (req, call) => discoveryEntry(schemas(call.baseUrl), params(req).id));

  route("GET", "/Users", async (req, call) => ok(await searchScimUsers(deps.db, parseListQuery(query(req)), call.baseUrl)));
  route("POST", "/Users", async (req, call) => created(await createScimUser(call, req.body)));
  route("GET", "/Users/:id", async (req, call) => ok(await getScimUser(deps.db, params(req).id, parseProjection(query(req)), call.baseUrl)));
  route("PUT", "/Users/:id", async (req, call) => ok(await replaceScimUser(call, params(req).id, req.body)));
  route("PATCH", "/Users/:id", async (req, call) => ok(await patchScimUser(call, params(req).id, req.body)));
  route("DELETE", "/Users/:id", async (req, call) => {
    await deleteScimUser(call, params(req).id);
    return NO_CONTENT;
  });

  route("GET", "/Groups", async (req, call) => ok(await searchScimGroups(deps.db, parseListQuery(query(req)), call.baseUrl)));
  route("POST", "/Groups", async (req, call) => created(await createScimGroup(call, req.body)));
  route("GET", "/Groups/:id", async (req, call) => ok(await getScimGroup(deps.db, params(req).id, parseProjection(query(req)), call.baseUrl)));
  route("PUT", "/Groups/:id", async (req, call) => ok(await replaceScimGroup(call, params(req).id, req.body)));
  route("PATCH", "/Groups/:id", async (req, call) => ok(await patchScimGroup(call, params(req).id, req.body)));
  route("DELETE", "/Groups/:id", async (req, call) => {
    await deleteScimGroup(call, params(req).id);
    return NO_CONTENT;
  });
}

async function answer(deps: ScimDeps, req: FastifyRequest, reply: FastifyReply, handler: Handler): Promise<FastifyReply> {
  try {
    const { status, body, location } = await handler(req, await scimCall(deps, req, reply));
    if (location) reply.header("location", location);
    return body ? sendScim(reply, status, body) : reply.code(status).send();
  } catch (thrown) {
    return sendScimFailure(req, reply, thrown);
  }
}

async function scimCall(deps: ScimDeps, req: FastifyRequest, reply: FastifyReply): Promise<ScimCall> {
  return {
    store: deps,
    request: {
      method: `${req.method} ${req.routeOptions.url ?? ""}`,
      clientIp: req.clientIp,
      userAgent: req.headers["user-agent"] ?? "",
      correlationId: req.id,
      startedAt: performance.now() - reply.elapsedTime,
      body: req.body,
      logger: req.log as Logger,
    },
    baseUrl: `${await externalUrlOf(deps, req)}${SCIM_PREFIX}`,
  };
}

/** The URL users visit (flag, else WORKSPACE_PROFILE), else the one this request came to. */
async function externalUrlOf(deps: ScimDeps, req: FastifyRequest): Promise<string> {
  const { externalUrl } = await readWorkspaceProfile(deps.settings);
  return (externalUrl || `${req.protocol}://${req.host}`).replace(/\/+$/, "");
}

/** /Schemas and /ResourceTypes: every entry in a ListResponse. */
function discoveryList(entries: JsonObject[]): JsonObject {
  return listResponse(entries, entries.length, 1);
}

/** /Schemas/<urn>, /ResourceTypes/<name>. */
async function discoveryEntry(entries: JsonObject[], id: string): Promise<Answer> {
  const entry = entries.find((e) => String(e.id).toLowerCase() === id.toLowerCase());
  if (!entry) throw notFound(`no entry "${id}"; known: ${entries.map((e) => e.id).join(", ")}`);
  return ok(entry);
}
