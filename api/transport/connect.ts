// Connect (JSON and binary, unary and streaming), gRPC and gRPC-Web through
// connect-fastify, in their own encapsulated context. Unary Connect POSTs and
// unary gRPC calls are answered in front of it by the in-process fast path
// (fast-unary.ts; same interceptors).
// Behind it, connect-guard.ts keeps connect's refusals to the contract.
import { fastifyConnectPlugin } from "@connectrpc/connect-fastify";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";
import type { Interceptor } from "@connectrpc/connect";
import type { FastifyInstance } from "fastify";
import { checkGetMessage } from "./connect-binary-input.ts";
import { createFastUnaryHook } from "./fast-unary.ts";
import { guardHandlers } from "./connect-guard.ts";
import { protocolOfContentType, requestContextValues } from "./context.ts";
import type { UnaryInvoker } from "./invoke-unary.ts";
import type { ServiceRegistration } from "./services.ts";

export interface ConnectTransportOptions {
  registrations: readonly ServiceRegistration[];
  interceptors: Interceptor[];
  /** The in-process unary path; undefined leaves every call to connect-fastify. */
  invoke: UnaryInvoker | undefined;
  maxBodyBytes: number;
  shutdownSignal: AbortSignal;
}

/** Compress responses of at least this size when the client accepts it. */
const COMPRESS_MIN_BYTES = 1024;

export async function registerConnect(app: FastifyInstance, options: ConnectTransportOptions): Promise<void> {
  const acceptCompression = [compressionGzip, compressionBrotli];
  if (options.invoke) {
    const services = options.registrations.map((r) => r.service);
    const fastUnary = createFastUnaryHook(services, {
      invoke: options.invoke,
      readMaxBytes: options.maxBodyBytes,
      compressMinBytes: COMPRESS_MIN_BYTES,
      acceptCompression,
    });
    app.addHook("onRequest", fastUnary);
  }
  const binaryInput = { acceptCompression, readMaxBytes: options.maxBodyBytes };
  await app.register(fastifyConnectPlugin, {
    routes: (router) => {
      for (const { service, impl } of options.registrations) router.service(service, impl);
      guardHandlers(router.handlers, binaryInput);
    },
    // Connect GETs only, which the fast path never answers.
    requestGate: (context) => checkGetMessage(context, binaryInput),
    interceptors: options.interceptors,
    readMaxBytes: options.maxBodyBytes,
    compressMinBytes: COMPRESS_MIN_BYTES,
    acceptCompression,
    shutdownSignal: options.shutdownSignal,
    contextValues: (req) => requestContextValues(req, protocolOfContentType(req.headers["content-type"])),
  });
}
