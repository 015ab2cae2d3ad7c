// A small REST client for tests: JSON in, status + JSON body out.
import assert from "node:assert/strict";
export interface RestReply<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export function restClient(baseUrl: string) {
  return async <T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<RestReply<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.token) headers["authorization"] = `Bearer ${options.token}`;
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T, headers: res.headers };
  };
}

type Json = Record<string, any>;

/**
 * call(): the reply's body with its HTTP status as `httpStatus`, sent as user
 * `as` (a key of `tokens`); ok(): the same, asserted 200. `rest` is read at
 * each call, so the pair can be made before `before()` opens the client.
 */
export function restAs<User extends string>(rest: () => ReturnType<typeof restClient>, tokens: Partial<Record<User, string>>, defaultUser: User) {
  const call = async (method: string, path: string, body?: unknown, as: User = defaultUser): Promise<Json> => {
    const reply = await rest()<Json>(method, path, { token: tokens[as], body });
    return { ...reply.body, httpStatus: reply.status };
  };
  const ok = async (method: string, path: string, body?: unknown, as: User = defaultUser): Promise<Json> => {
    const reply = await call(method, path, body, as);
    assert.equal(reply.httpStatus, 200, `${method} ${path}: ${JSON.stringify(reply)}`);
    return reply;
  };
  return { call, ok };
}
