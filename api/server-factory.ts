// One port for HTTP/1.1 and cleartext HTTP/2 (h2c): each new connection is
// sniffed for the HTTP/2 preface and handed to the matching Node server.
// HTTP/1.1 connections hold their writes to the end of each event-loop turn
// (flush-consolidation.ts).
// TLS is terminated by the reverse proxy in front (specification).
import { createServer as createHttp1Server, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from "node:http2";
import type { Socket } from "node:net";
import { consolidateWrites } from "./flush-consolidation.ts";

type Handler = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void;

export interface ServerTimeouts {
  headersMs: number;
  keepAliveMs: number;
  /** How long a new connection may take to send its first bytes. */
  sniffMs: number;
}

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

export const DEFAULT_TIMEOUTS: ServerTimeouts = { headersMs: 30_000, keepAliveMs: 65_000, sniffMs: 10_000 };

/** holdWrites: consolidate HTTP/1.1 writes per turn (off for the bench's bare baselines, which stay stock Node). */
export function createHybridServer(handler: Handler, timeouts: ServerTimeouts = DEFAULT_TIMEOUTS, holdWrites = true): Server {
  const http1 = createHttp1Server(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: 0, // streaming calls may run long; the headers timeout guards slow clients
      keepAliveTimeout: timeouts.keepAliveMs,
      // Node checks the headers timeout on this interval (default 30 s, which would let a slow client hold a
      // connection for up to twice the timeout); once a second keeps it within a second of the limit.
      connectionsCheckingInterval: Math.min(timeouts.headersMs, 1_000),
    },
    handler as (req: IncomingMessage, res: ServerResponse) => void,
  );
  const http2 = createHttp2Server({}, handler as (req: Http2ServerRequest, res: Http2ServerResponse) => void);
  http2.setTimeout(timeouts.keepAliveMs);
  const sessions = new Set<Http2Session>();
  http2.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });

  const http1Listeners = http1.listeners("connection") as ((socket: Socket) => void)[];
  http1.removeAllListeners("connection");
  http1.on("connection", (socket: Socket) => sniff(socket, timeouts.sniffMs, (isHttp2) => {
    if (isHttp2) http2.emit("connection", socket);
    else {
      if (holdWrites) consolidateWrites(socket);
      for (const listener of http1Listeners) listener.call(http1, socket);
      socket.resume();
    }
  }));

  const close = http1.close.bind(http1);
  http1.close = (callback?: (error?: Error) => void) => {
    for (const session of sessions) session.close();
    http2.close();
    return close(callback);
  };
  return http1;
}

function sniff(socket: Socket, timeoutMs: number, route: (isHttp2: boolean) => void): void {
  let received: Buffer = Buffer.alloc(0);
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  const onData = (chunk: Buffer) => {
    received = received.length ? Buffer.concat([received, chunk]) : chunk;
    const compared = Math.min(received.length, PREFACE.length);
    const prefixMatches = received.subarray(0, compared).equals(PREFACE.subarray(0, compared));
    if (prefixMatches && received.length < PREFACE.length) return; // wait for the rest of the preface
    clearTimeout(timer);
    socket.off("data", onData);
    socket.off("error", onError);
    socket.pause();
    socket.unshift(received);
    route(prefixMatches);
  };
  const onError = () => clearTimeout(timer);
  socket.on("data", onData);
  socket.once("error", onError);
  socket.once("close", () => clearTimeout(timer));
}
