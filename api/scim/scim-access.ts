// Who may call the SCIM endpoints (contract §5.4): the bearer of
// WORKSPACE_PROFILE.directory_sync_token. While no token is set, directory
// sync is off and every endpoint answers 501 (the contract's unimplemented),
// whatever the request carries; a missing or wrong token answers 401.
// Requests are counted per client address under --rate-limit-per-user before
// the token is looked at, so a directory is held to the limit of a signed-in
// user and guessing the token gets no faster than that.
import type { FastifyReply, FastifyRequest } from "fastify";
import { directoryAccess, PrincipalRateLimiter } from "../../shared/identity/index.ts";
import type { SecretBox } from "../../shared/platform/index.ts";
import type { SettingReader } from "../../shared/governance/index.ts";
import { sendScimError } from "./scim-reply.ts";

export interface ScimAccessDeps {
  settings: SettingReader;
  secrets: SecretBox;
  /** Requests per minute per client address; 0 turns the limit off. */
  rateLimitPerMinute: number;
}

const OFF = "directory sync is off: set WORKSPACE_PROFILE.directory_sync_token to turn it on";

/** An onRequest hook; a refusal is answered here and the route never runs. */
export function scimAccessHook(deps: ScimAccessDeps) {
  const limiter = deps.rateLimitPerMinute > 0 ? new PrincipalRateLimiter(deps.rateLimitPerMinute) : undefined;
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    limiter?.take(`directory sync at ${req.clientIp}`);
    const access = await directoryAccess(deps.settings, deps.secrets, req.headers.authorization);
    if (access.kind === "off") return sendScimError(reply, 501, OFF);
    if (access.kind === "refused") return sendScimError(reply.header("www-authenticate", "Bearer"), 401, access.reason);
    return undefined;
  };
}
