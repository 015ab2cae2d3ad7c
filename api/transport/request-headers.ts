// A request's headers as interceptors and handlers see them: a Fetch Headers
// whose reads go straight to the headers Node parsed. A call reads two or
// three of them (authorization, cookie, a timeout); copying every header into
// a Headers object first cost more than the rest of the edge's work. Whatever
// needs the whole set (iteration, a change) gets a full copy, made once.
import type { IncomingHttpHeaders } from "node:http";

export class NodeRequestHeaders extends Headers {
  readonly #raw: IncomingHttpHeaders;
  #copy: Headers | undefined;

  constructor(raw: IncomingHttpHeaders) {
    super();
    this.#raw = raw;
  }

  override get(name: string): string | null {
    if (this.#copy) return this.#copy.get(name);
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined || name.startsWith(":")) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }

  override has(name: string): boolean {
    return this.get(name) !== null;
  }

  override set(name: string, value: string): void {
    this.#full().set(name, value);
  }

  override append(name: string, value: string): void {
    this.#full().append(name, value);
  }

  override delete(name: string): void {
    this.#full().delete(name);
  }

  override getSetCookie(): string[] {
    return this.#full().getSetCookie();
  }

  override forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.#full().forEach((value, key) => callback.call(thisArg, value, key, this));
  }

  override entries(): HeadersIterator<[string, string]> {
    return this.#full().entries();
  }

  override keys(): HeadersIterator<string> {
    return this.#full().keys();
  }

  override values(): HeadersIterator<string> {
    return this.#full().values();
  }

  override [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.#full()[Symbol.iterator]();
  }

  #full(): Headers {
    if (this.#copy) return this.#copy;
    const copy = new Headers();
    for (const [key, value] of Object.entries(this.#raw)) {
      if (value === undefined || key.startsWith(":")) continue;
      if (Array.isArray(value)) for (const v of value) copy.append(key, v);
      else copy.set(key, value);
    }
    return (this.#copy = copy);
  }
}
