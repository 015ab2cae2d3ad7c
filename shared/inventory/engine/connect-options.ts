// How a data source's sslMode, sslCa and extraOptions (contract §9.3) turn
// into connection settings, the same way for every engine.
import { invalidArgument, quoted } from "../../platform/index.ts";
import type { ConnectionConfig } from "./target.ts";

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** The extraOptions keys a data source may carry, with their meaning. */
export const EXTRA_OPTIONS: Record<string, string> = {
  connectTimeout: "milliseconds to wait for the server to accept the connection (default 5000)",
};

/** Throws invalid_argument naming an unknown or malformed extraOptions entry. */
export function checkExtraOptions(config: ConnectionConfig): void {
  for (const key of Object.keys(config.extraOptions)) {
    if (!(key in EXTRA_OPTIONS)) {
      throw invalidArgument(`extraOptions.${key} is not a known option (known: ${Object.keys(EXTRA_OPTIONS).join(", ")})`);
    }
  }
  connectTimeoutMs(config);
}

export function connectTimeoutMs(config: ConnectionConfig): number {
  const raw = config.extraOptions.connectTimeout;
  if (raw === undefined) return DEFAULT_CONNECT_TIMEOUT_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 600_000) {
    throw invalidArgument(`extraOptions.connectTimeout must be a whole number of milliseconds between 1 and 600000, got ${quoted(raw)}`);
  }
  return value;
}

/** What TLS asks for: whether to use it, which CA to trust, and what to verify. */
export interface TlsPolicy {
  /** The PEM CA to trust; undefined = the system's. */
  ca: string | undefined;
  /** Verify that the server's certificate chains to the CA. */
  verifyChain: boolean;
  /** Verify that the certificate names the host. */
  verifyHost: boolean;
}

/** undefined = no TLS. REQUIRE with a CA verifies the chain but not the host name; VERIFY_FULL verifies both. */
export function tlsPolicy(config: ConnectionConfig): TlsPolicy | undefined {
  const ca = config.sslCa.trim() ? config.sslCa : undefined;
  switch (config.sslMode) {
    case "DISABLE":
      return undefined;
    case "REQUIRE":
      return { ca, verifyChain: ca !== undefined, verifyHost: false };
    case "VERIFY_FULL":
      return { ca, verifyChain: true, verifyHost: true };
  }
}
