// A small HTTP/2 (h2c) load generator, for what autocannon cannot do: gRPC.
// `connections` concurrent streams in total, spread over `h2Sessions`
// sessions; each stream slot sends its next request as soon as the previous
// one closes, until the deadline. Only responses completed inside the
// measured window count; each is checked with `accept`.
import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http2";
import { withCpuUse } from "./cpu.ts";
import { Latencies, percentile, type LoadResult } from "./load-result.ts";

export interface H2Target {
  origin: string;
  headers: OutgoingHttpHeaders; // :method, :path and the rest
  body?: Buffer;
  /** Whether a response succeeded, from its headers and trailers. */
  accept(headers: IncomingHttpHeaders, trailers: IncomingHttpHeaders): boolean;
}

export interface H2Settings {
  connections: number;
  h2Sessions: number;
  warmupS: number;
  durationS: number;
  serverPid: number;
}

export async function h2Load(target: H2Target, settings: H2Settings): Promise<LoadResult> {
  if (settings.warmupS > 0) await h2Run(target, settings, settings.warmupS);
  const measured = await withCpuUse(settings.serverPid, () => h2Run(target, settings, settings.durationS));
  return { ...measured.result, serverCpu: measured.serverCpu, serverMainThreadCpu: measured.serverMainThreadCpu, generatorCpu: measured.generatorCpu };
}

/** One request/response exchange, resolving to whether it was accepted. */
export function h2Call(session: ClientHttp2Session, target: H2Target): Promise<boolean> {
  return new Promise((resolve) => {
    let headers: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    let stream;
    try {
      stream = session.request(target.headers, { endStream: target.body === undefined });
    } catch {
      return resolve(false); // the session is closing or broken
    }
    stream.on("response", (h) => (headers = h));
    stream.on("trailers", (t) => (trailers = t));
    stream.on("data", () => {});
    stream.on("error", () => {}); // counted through the close code below
    stream.on("close", () => resolve(stream.rstCode === constants.NGHTTP2_NO_ERROR && target.accept(headers, trailers)));
    if (target.body !== undefined) stream.end(target.body);
  });
}

export async function openSessions(origin: string, count: number): Promise<ClientHttp2Session[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      new Promise<ClientHttp2Session>((resolve, reject) => {
        const session = connect(origin);
        session.once("connect", () => {
          session.on("error", () => {}); // a broken session fails its streams, counted there
          resolve(session);
        });
        session.once("error", reject);
      }),
    ),
  );
}

async function h2Run(target: H2Target, settings: H2Settings, durationS: number): Promise<LoadResult> {
  const sessions = await openSessions(target.origin, Math.min(settings.h2Sessions, settings.connections));
  const latencies = new Latencies();
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  const deadline = started + durationS * 1000;
  const slot = async (session: ClientHttp2Session) => {
    while (performance.now() < deadline) {
      if (session.destroyed) {
        failed++;
        return;
      }
      const sent = performance.now();
      const accepted = await h2Call(session, target);
      const done = performance.now();
      if (done > deadline) break; // finished outside the window
      if (accepted) {
        ok++;
        latencies.add(done - sent);
      } else failed++;
    }
  };
  const slots = Array.from({ length: settings.connections }, (_, i) => slot(sessions[i % sessions.length]!));
  await Promise.all(slots);
  for (const session of sessions) session.close();
  const sorted = latencies.sorted();
  return { rps: ok / durationS, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), ok, failed };
}
