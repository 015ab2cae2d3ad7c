// Refuses a request whose message breaks the input rules (input-limits.ts)
// with invalid_argument naming the field, before the permission check and the
// handler read anything of it. It sits after the audit hook, so that an
// audited call refused here is recorded like any refusal.
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { DescMessage, Message } from "@bufbuild/protobuf";
import { inputProblem } from "../input-limits.ts";
import { isServerStream, readServerStreamRequest } from "../stream-request.ts";

export const inputCheckInterceptor: Interceptor = (next) => async (req) => {
  if (!req.stream) {
    refuseBrokenInput(req.method.input, req.message);
    return next(req);
  }
  if (!isServerStream(req)) return next(req);
  const { message, req: call } = await readServerStreamRequest(req);
  if (message) refuseBrokenInput(req.method.input, message);
  return next(call);
};

function refuseBrokenInput(desc: DescMessage, message: Message): void {
  const problem = inputProblem(desc, message);
  if (problem) throw new ConnectError(problem, Code.InvalidArgument);
}
