// One POST of a notification to a webhook, or one call of an IM vendor's
// API: at most ATTEMPT_TIMEOUT_MS from connecting to the end of the answer,
// then the request is dropped. Without the operator's allow-private flag the
// socket connects only to public addresses (address-guard.ts). The answer
// keeps its status, its Retry-After and the start of its body (what a test
// call shows).
import http from "node:http";
import https from "node:https";
import { publicOnlyLookup, refuseInternalLiteral } from "./address-guard.ts";

export const ATTEMPT_TIMEOUT_MS = 10_000;
const BODY_KEPT = 2048;

export interface PostOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  /** How much of the answer's body is kept (BODY_KEPT by default); an IM vendor's JSON is read whole. */
  keepBytes?: number;
}

export interface WebhookAnswer {
  status: number;
  /** The Retry-After header, when the receiver sent one. */
  retryAfter: string | undefined;
  /** The first bytes of the answer's body, as text. */
  body: string;
}

export async function postJson(address: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<WebhookAnswer> {
  return sendRequest(address, { method: "POST", body, headers: { "content-type": "application/json", ...headers } }, options);
}

export interface OutgoingRequest {
  method: "GET" | "POST";
  /** The exact body, with its content-type among the headers. */
  body?: string;
  headers: Record<string, string>;
}

/** One request under the same guard and timeout as a webhook's POST (the IM vendors' calls). */
export async function sendRequest(address: string, outgoing: OutgoingRequest, options: PostOptions): Promise<WebhookAnswer> {
  const url = new URL(address);
  if (!options.allowPrivate) refuseInternalLiteral(url);
  const client = url.protocol === "https:" ? https : http;
  const keep = options.keepBytes ?? BODY_KEPT;
  const signal = AbortSignal.timeout(options.timeoutMs ?? ATTEMPT_TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: outgoing.method,
      headers: outgoing.body === undefined ? outgoing.headers : { ...outgoing.headers, "content-length": String(Buffer.byteLength(outgoing.body)) },
      signal,
      agent: false,
      ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
    });
    request.on("error", (error) => reject(signal.aborted ? new Error(`no answer within ${(options.timeoutMs ?? ATTEMPT_TIMEOUT_MS) / 1000}s`) : error));
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on("data", (chunk: Buffer) => {
        if (kept < keep) chunks.push(chunk);
        kept += chunk.length;
      });
      response.on("error", reject);
      response.on("end", () => {
        const retryAfter = response.headers["retry-after"];
        resolve({ status: response.statusCode ?? 0, retryAfter, body: Buffer.concat(chunks).toString("utf8").slice(0, keep) });
      });
    });
    request.end(outgoing.body);
  });
}
