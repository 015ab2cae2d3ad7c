// The client address of contract §4.6: headers count only from trusted proxies.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clientIpOf } from "../api/client-ip.ts";
import { trustedProxyList } from "../shared/platform/config.ts";

describe("clientIpOf", () => {
  const trusted = trustedProxyList(["10.0.0.0/8", "::1/128"]);

  it("uses the socket address of an untrusted peer, whatever its headers say", () => {
    const headers = { "x-forwarded-for": "1.2.3.4", "x-real-ip": "5.6.7.8" };
    assert.equal(clientIpOf("203.0.113.9", "1.2.3.4", headers, trusted), "203.0.113.9");
    assert.equal(clientIpOf("::ffff:203.0.113.9", "1.2.3.4", headers, trusted), "203.0.113.9");
  });

  it("takes the right-most untrusted X-Forwarded-For address from a trusted proxy", () => {
    // Fastify's trustProxy walks the list from the right and hands over that address.
    assert.equal(clientIpOf("10.0.0.2", "198.51.100.4", { "x-forwarded-for": "6.6.6.6, 198.51.100.4, 10.0.0.7" }, trusted), "198.51.100.4");
  });

  it("falls back to X-Real-IP from a trusted proxy, and ignores a malformed one", () => {
    assert.equal(clientIpOf("::1", "::1", { "x-real-ip": "198.51.100.5" }, trusted), "198.51.100.5");
    assert.equal(clientIpOf("::1", "::1", { "x-real-ip": "not-an-ip" }, trusted), "::1");
  });
});
