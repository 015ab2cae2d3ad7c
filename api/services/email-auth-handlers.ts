// AuthService's e-mail RPCs: SendEmailCode (contract §4.1, §4.2) and the
// forgotten-password pair RequestPasswordReset / ResetPassword (§5.3). The
// code or link is stored during the call; the mail goes out right after the
// reply, through the EMAIL setting's SMTP server.
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { requestPasswordReset, resetPassword, sendEmailCode } from "../../shared/identity/index.ts";
import type { AuthService } from "../../shared/gen/svc/v1/auth_service_pb.js";
import { readWorkspaceProfile } from "../../shared/governance/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { requestFacts } from "../transport/context.ts";
import type { AuthDeps } from "./auth-service.ts";

type EmailAuthHandlers = Pick<ServiceImpl<typeof AuthService>, "sendEmailCode" | "requestPasswordReset" | "resetPassword">;

export function emailAuthHandlers(deps: AuthDeps): EmailAuthHandlers {
  const call = async (context: HandlerContext) => {
    const facts = requestFacts(context.values);
    return { profile: await readWorkspaceProfile(deps.settings), client: facts, logger: facts.logger };
  };

  return {
    async sendEmailCode(req, context) {
      const { profile, client, logger } = await call(context);
      await sendEmailCode(deps, profile, client, logger, req.email);
      return {};
    },
    async requestPasswordReset(req, context) {
      const { profile, client, logger } = await call(context);
      await requestPasswordReset(deps, profile, profile.externalUrl, client, logger, req.email);
      return {};
    },
    async resetPassword(req, context) {
      const { profile, client } = await call(context);
      await resetPassword(deps.sideDb, auditScope(context), profile, client, req);
      return {};
    },
  };
}
