// A small REST client for tests: JSON in, status + JSON body out.
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
