// A SCIM client for the directory sync tests: requests to /scim/v2 as Okta
// and Microsoft Entra ID send them, and the directory sync token set through
// UpdateSetting (sealed at rest like any credential).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { findUserByLoginId, setPassword } from "../../shared/identity/user/user.store.ts";
import { hashPassword } from "../../shared/identity/user/password-hash.ts";
import type { TestApp } from "./app.ts";
import { eventually } from "./instances.ts";
import type { restClient } from "./rest.ts";
import { STRONG_PASSWORD } from "./users.ts";

// SCIM resources are loose JSON; tests read them as such.
export type Json = Record<string, any>;

export interface ScimReply {
  status: number;
  body: Json;
  headers: Headers;
}

export interface ScimOptions {
  body?: unknown;
  /** Sent as is instead of JSON.stringify(body). */
  raw?: string;
  /** The bearer token; "" sends none. */
  token?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
export const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

export function newDirectoryToken(): string {
  return randomBytes(32).toString("base64url");
}

export function scimClient(baseUrl: string, defaultToken: () => string) {
  return async (method: string, path: string, options: ScimOptions = {}): Promise<ScimReply> => {
    const headers: Record<string, string> = { accept: "application/scim+json", ...options.headers };
    const token = options.token ?? defaultToken();
    if (token) headers.authorization = `Bearer ${token}`;
    const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (payload !== undefined) headers["content-type"] = options.contentType ?? "application/scim+json";
    const res = await fetch(`${baseUrl}/scim/v2${path}`, { method, headers, body: payload });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
}

/** `Operations` as a PatchOp body. */
export function patchOp(...operations: Json[]): Json {
  return { schemas: [PATCH_OP], Operations: operations };
}

/** Sets WORKSPACE_PROFILE.directory_sync_token as an administrator does, and waits until SCIM answers with it. */
export async function setDirectoryToken(app: TestApp, rest: ReturnType<typeof restClient>, adminToken: string, token: string): Promise<void> {
  const reply = await rest<Json>("PATCH", "/v1/settings/WORKSPACE_PROFILE?updateMask=workspaceProfile.directorySyncToken", {
    token: adminToken,
    body: { value: { workspaceProfile: { directorySyncToken: token } } },
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  const scim = scimClient(app.baseUrl, () => token);
  await eventually(async () => (await scim("GET", "/ServiceProviderConfig")).status === 200);
}

/** A SCIM error reply: status, SCIM error body, content type. */
export function assertScimError(reply: ScimReply, status: number, scimType?: string, detail?: RegExp): void {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  assert.match(reply.headers.get("content-type") ?? "", /^application\/scim\+json/);
  assert.deepEqual(reply.body.schemas, [ERROR_SCHEMA]);
  assert.equal(reply.body.status, String(status));
  assert.equal(reply.body.scimType, scimType);
  if (detail) assert.match(reply.body.detail, detail);
}

/** Gives a provisioned user a password (directories do not send one), so that the test can sign in as it. */
export async function givePassword(app: TestApp, loginId: string): Promise<void> {
  const user = await findUserByLoginId(app.db, loginId);
  assert.ok(user, `user ${loginId} exists`);
  await setPassword(app.db, user.id, await hashPassword(STRONG_PASSWORD), false);
}
