// Request facts that travel with every call through the interceptor chain,
// filled once at the edge from the Fastify request (all three API forms).
import { Code, ConnectError, createContextKey, createContextValues, type ContextValues } from "@connectrpc/connect";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "../../shared/platform/index.ts";
import { NodeRequestHeaders } from "./request-headers.ts";

export type ApiProtocol = "rest" | "connect" | "grpc" | "grpc-web";

export interface RequestFacts {
  correlationId: string;
  clientIp: string;
  userAgent: string;
  protocol: ApiProtocol;
  /** The client reached us over HTTPS (directly, or as a trusted proxy's X-Forwarded-Proto says). */
  https: boolean;
  logger: Logger;
  /** performance.now() when the request arrived. */
  startedAt: number;
}

const kRequest = createContextKey<RequestFacts | undefined>(undefined, { description: "request facts" });

declare module "fastify" {
  interface FastifyRequest {
    /** The client address of contract §4.6 (set by the clientIp hook). */
    clientIp: string;
  }
}

export function requestContextValues(req: FastifyRequest, protocol: ApiProtocol): ContextValues {
  return createContextValues().set(kRequest, {
    correlationId: req.id,
    clientIp: req.clientIp,
    userAgent: req.headers["user-agent"] ?? "",
    protocol,
    https: req.protocol === "https",
    logger: req.log as Logger,
    startedAt: performance.now(),
  });
}

export function requestFacts(values: ContextValues): RequestFacts {
  const facts = values.get(kRequest);
  if (!facts) throw new Error("request facts missing: the call did not enter through the API edge");
  return facts;
}

/** The API form of a Connect-routed request, from its Content-Type. */
export function protocolOfContentType(contentType: string | undefined): ApiProtocol {
  const type = contentType ?? "";
  if (type.startsWith("application/grpc-web")) return "grpc-web";
  if (type.startsWith("application/grpc")) return "grpc";
  return "connect";
}

/** The request's headers as a Fetch Headers object, as interceptors see them. */
export function requestHeaders(req: FastifyRequest): Headers {
  return new NodeRequestHeaders(req.headers);
}

/**
 * An abort controller for one call that fires Canceled when the client goes
 * away before the response is written; release() when the call is over.
 */
export function abortWhenClientLeaves(reply: FastifyReply): { controller: AbortController; release: () => void } {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new ConnectError("the client went away", Code.Canceled));
  };
  reply.raw.once("close", onClose);
  return { controller, release: () => reply.raw.off("close", onClose) };
}
