// Directory sync requests meet the API's input rules (decision 0074) before
// anything reads them: no string of the body, path or query holds a NUL
// character, and none is longer than 1 KiB in UTF-8 (a user's or group's
// attributes are names, addresses and ids; 4 KiB for a query's filter).
// A refusal is a SCIM invalidValue error naming the attribute.
import type { FastifyReply, FastifyRequest } from "fastify";
import { DEFAULT_MAX_LENGTH } from "../transport/input-limits.ts";
import { quoted } from "../../shared/platform/index.ts";
import { sendScimError } from "./scim-reply.ts";

const MAX_FILTER_LENGTH = 4096;

/** A preHandler: the request's first broken string, refused. */
export async function refuseBrokenScimInput(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const problem =
    valueProblem(req.params, "", DEFAULT_MAX_LENGTH) ??
    valueProblem({ ...query, filter: undefined }, "", DEFAULT_MAX_LENGTH) ??
    valueProblem(query.filter, "filter", MAX_FILTER_LENGTH) ??
    valueProblem(req.body, "", DEFAULT_MAX_LENGTH);
  return problem ? sendScimError(reply, 400, problem, "invalidValue") : undefined;
}

function valueProblem(value: unknown, path: string, maxLength: number): string | undefined {
  if (typeof value === "string") return textProblem(value, path, maxLength);
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const problem = valueProblem(item, `${path}[${i}]`, maxLength);
      if (problem) return problem;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      const problem = textProblem(key, at, maxLength) ?? valueProblem(item, at, maxLength);
      if (problem) return problem;
    }
  }
  return undefined;
}

function textProblem(text: string, path: string, maxLength: number): string | undefined {
  const bytes = Buffer.byteLength(text);
  if (bytes > maxLength) return `${path || "value"}: too long: ${bytes} bytes, at most ${maxLength} accepted`;
  if (text.includes("\0")) return `${path || "value"}: ${quoted(text)} contains a NUL character (U+0000), which is not accepted`;
  return undefined;
}
