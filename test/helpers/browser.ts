// A minimal browser for sign-in flows: follows redirects one by one with
// fetch, keeping each site's cookies, and stops where the test wants to look.
export interface Step {
  url: URL;
  response: Response;
}

export class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  /** Requests `url` and follows redirects until a response is not a redirect or `stopBefore` says so. */
  async follow(url: string | URL, options: { stopBefore?: (next: URL) => boolean; init?: RequestInit } = {}): Promise<Step> {
    let current = new URL(url);
    let init = options.init;
    for (let hops = 0; hops < 20; hops++) {
      const response = await this.request(current, init);
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location) return { url: current, response };
      const next = new URL(location, current);
      if (options.stopBefore?.(next)) return { url: next, response };
      await response.arrayBuffer();
      current = next;
      init = undefined;
    }
    throw new Error(`too many redirects from ${String(url)}`);
  }

  /** One request with this site's cookies; stores the cookies the answer sets. */
  async request(url: URL, init: RequestInit = {}): Promise<Response> {
    const jar = this.jars.get(url.host) ?? new Map<string, string>();
    this.jars.set(url.host, jar);
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const eq = pair!.indexOf("=");
      const [name, value] = [pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim()];
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  cookie(host: string, name: string): string | undefined {
    return this.jars.get(host)?.get(name);
  }
}
