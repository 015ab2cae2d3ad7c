// The calls of one IM attempt to a vendor's API: each through the address
// guard, all of them within the attempt's 10 s, each answer read as the
// vendor means it. An HTTP failure is judged as a webhook's is (4xx final but
// 408/429, Retry-After honoured); a 2xx whose body says failure (Slack
// ok:false, Feishu code ≠ 0, WeCom/DingTalk errcode ≠ 0, Telegram ok:false)
// is final with the vendor's message, unless the vendor says it is busy; a
// token the vendor rejects is forgotten and the attempt tried again. Errors
// name the call (chat.postMessage, gettoken), never its URL, which may carry
// a token or a secret.
import { InternalAddressError } from "../address-guard.ts";
import { type AttemptOutcome, outcomeOf } from "../retry-policy.ts";
import { ATTEMPT_TIMEOUT_MS, sendRequest, type WebhookAnswer } from "../webhook-post.ts";
import { forgetToken } from "./token-cache.ts";

export type Json = Record<string, any>;

/** How a vendor's answers say failure. */
export interface VendorRules {
  /** The vendor's failure message in the body; undefined when it says success. */
  failure(body: Json): string | undefined;
  /** Whether the answer says the access token is no longer valid. */
  tokenRejected?(status: number, body: Json): boolean;
  /** Whether a failure in the body is worth another attempt (busy, rate-limited). */
  transient?(body: Json): boolean;
}

export interface VendorCall {
  /** The vendor's name of the call, for errors. */
  name: string;
  url: string;
  method?: "GET" | "POST";
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** The cache key of the token the call carries, forgotten when the vendor rejects it. */
  token?: string;
  /** A token request: its answer is never kept with an error (a test call shows answers). */
  grantsToken?: boolean;
  /** Whether a failure in the body only says that what was looked up does not exist (not a failure of the call). */
  absent?(body: Json): boolean;
}

export interface VendorReply {
  body: Json;
  answer: WebhookAnswer;
  /** The call's `absent` held: nothing was found. */
  absent: boolean;
}

/** A failed call: what it means for the delivery and, when there was one, the vendor's answer. */
export class ImCallError extends Error {
  override name = "ImCallError";
  readonly outcome: AttemptOutcome;
  readonly answer: WebhookAnswer | undefined;
  constructor(outcome: Exclude<AttemptOutcome, { kind: "sent" }>, answer?: WebhookAnswer) {
    super(outcome.error);
    this.outcome = outcome;
    this.answer = answer;
  }
}

const KEEP_BYTES = 256 * 1024;

export class VendorApi {
  readonly #rules: VendorRules;
  readonly #allowPrivate: boolean;
  readonly #deadline = Date.now() + ATTEMPT_TIMEOUT_MS;

  constructor(rules: VendorRules, allowPrivate: boolean) {
    this.#rules = rules;
    this.#allowPrivate = allowPrivate;
  }

  async call(call: VendorCall): Promise<VendorReply> {
    try {
      return await this.#judge(call, await this.#send(call));
    } catch (error) {
      if (call.grantsToken && error instanceof ImCallError && error.answer) throw new ImCallError(error.outcome as Exclude<AttemptOutcome, { kind: "sent" }>);
      throw error;
    }
  }

  #judge(call: VendorCall, answer: WebhookAnswer): VendorReply {
    const body = parseJson(answer.body);
    const vendorMessage = this.#rules.failure(body);
    if (call.token && this.#rules.tokenRejected?.(answer.status, body)) {
      forgetToken(call.token);
      throw new ImCallError({ kind: "retry", error: `${call.name}: the access token was refused (${vendorMessage ?? `HTTP ${answer.status}`})` }, answer);
    }
    if (answer.status < 200 || answer.status >= 300) {
      const outcome = outcomeOf(answer) as Exclude<AttemptOutcome, { kind: "sent" }>;
      const said = vendorMessage ?? (call.grantsToken ? "" : answer.body.slice(0, 200));
      throw new ImCallError({ ...outcome, error: `${call.name}: HTTP ${answer.status}${said ? `: ${said}` : ""}` }, answer);
    }
    if (vendorMessage !== undefined && call.absent?.(body)) return { body, answer, absent: true };
    if (vendorMessage !== undefined) {
      throw new ImCallError({ kind: this.#rules.transient?.(body) ? "retry" : "failed", error: `${call.name}: ${vendorMessage}` }, answer);
    }
    return { body, answer, absent: false };
  }

  async #send(call: VendorCall): Promise<WebhookAnswer> {
    const timeoutMs = this.#deadline - Date.now();
    if (timeoutMs <= 0) throw new ImCallError({ kind: "retry", error: `${call.name}: no time left of the attempt's ${ATTEMPT_TIMEOUT_MS / 1000}s` });
    const [contentType, body] = call.form
      ? ["application/x-www-form-urlencoded", new URLSearchParams(call.form).toString()]
      : call.json === undefined ? [undefined, undefined] : ["application/json; charset=utf-8", JSON.stringify(call.json)];
    const headers = { accept: "application/json", ...(contentType ? { "content-type": contentType } : {}), ...call.headers };
    try {
      return await sendRequest(call.url, { method: call.method ?? (body === undefined ? "GET" : "POST"), body, headers }, { allowPrivate: this.#allowPrivate, timeoutMs, keepBytes: KEEP_BYTES });
    } catch (error) {
      const message = `${call.name}: ${(error as Error).message}`;
      throw new ImCallError(error instanceof InternalAddressError ? { kind: "failed", error: message } : { kind: "retry", error: message });
    }
  }
}

function parseJson(text: string): Json {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};
  } catch {
    return {};
  }
}
