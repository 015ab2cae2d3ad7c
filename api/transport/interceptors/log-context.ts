// Each call runs in the platform's log context under its correlation id
// (contract §15.5): every line logged while it runs carries it, whichever
// logger writes the line, and so does every job it enqueues.
import type { Interceptor } from "@connectrpc/connect";
import { withLogFields } from "../../../shared/platform/index.ts";
import { requestFacts } from "../context.ts";

export const logContextInterceptor: Interceptor = (next) => (req) =>
  withLogFields({ correlation_id: requestFacts(req.contextValues).correlationId }, () => next(req));
