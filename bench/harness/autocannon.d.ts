// The part of autocannon 9's programmatic API the bench uses (it ships no types).
declare module "autocannon" {
  interface Options {
    url: string;
    method?: "GET" | "POST";
    headers?: Record<string, string>;
    body?: string | Buffer;
    connections?: number;
    /** Requests sent in turn; a setupRequest rebuilds its request before every send. */
    requests?: { setupRequest?: SetupRequest }[];
    duration?: number;
    timeout?: number;
  }
  /** Called before each send with the request about to be built; returns the request to send. */
  export type SetupRequest = (request: { headers: Record<string, string> } & Record<string, unknown>) => { headers: Record<string, string> } & Record<string, unknown>;
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    latency: Histogram;
    requests: Histogram;
  }
  /** The running instance: a promise of the result that also emits per-response events. */
  interface Instance extends PromiseLike<Result> {
    on(event: "response", listener: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void): Instance;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
