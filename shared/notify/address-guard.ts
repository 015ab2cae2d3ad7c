// Where a webhook may point (contract §19.6): http(s) only, and never at
// loopback, link-local, private or otherwise internal addresses unless the
// server runs with --webhook-allow-private. A name is checked when the URL is
// saved and again when each request connects: the connection goes to the
// very address the check passed (the lookup below is the socket's own), so a
// name that resolves elsewhere later (DNS rebinding) cannot reach inside.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { lookup as lookupAll } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { invalidArgument, quoted } from "../platform/index.ts";

const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16],
  ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) INTERNAL.addSubnet(network, prefix, "ipv4");
// ::/96 also holds the IPv4-compatible forms (::127.0.0.1), 64:ff9b::/96 the NAT64 ones (64:ff9b::7f00:1).
for (const [network, prefix] of [["::", 96], ["64:ff9b::", 96], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]] as const) INTERNAL.addSubnet(network, prefix, "ipv6");

/** Whether an IP address is loopback, link-local, private, shared, multicast or unspecified (IPv4-mapped IPv6 addresses are checked as their IPv4 address by BlockList). */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return INTERNAL.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The URL's host without the brackets of an IPv6 literal. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** Refuses a URL whose host is, or resolves to, an internal address (the check at save). */
export async function refuseInternalUrl(url: URL, path: string): Promise<void> {
  const host = hostOf(url);
  const addresses = isIP(host) ? [host] : (await lookupAll(host, { all: true }).catch(() => [])).map((a) => a.address);
  const internal = addresses.find(isInternalAddress);
  if (internal !== undefined) throw invalidArgument(`${path} ${quoted(url.origin)} points at the internal address ${internal}; webhooks may only reach public addresses`);
}

/** The socket's lookup: resolves as usual and refuses any internal address it finds. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const internal = found.find((a) => isInternalAddress(a.address));
    if (internal) return callback(internalError(hostname, internal.address), "", 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, found);
    callback(null, found[0]!.address, found[0]!.family);
  });
};

/** Refuses an IP literal host at connect time (the socket does no lookup for one). */
export function refuseInternalLiteral(url: URL): void {
  const host = hostOf(url);
  if (isIP(host) && isInternalAddress(host)) throw internalError(host, host);
}

/** A send refused because the target is internal: final, trying again will not help. */
export class InternalAddressError extends Error {
  override name = "InternalAddressError";
}

function internalError(host: string, address: string): Error {
  return new InternalAddressError(`${host} resolves to the internal address ${address}; webhooks may only reach public addresses`);
}
