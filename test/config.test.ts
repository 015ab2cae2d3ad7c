// Flags and environment, parsed and validated once (contract §15.8).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, loadConfig, trustedProxyList } from "../shared/platform/config.ts";

describe("loadConfig", () => {
  it("has the contract's defaults", () => {
    const config = loadConfig([], {});
    assert.equal(config.port, 8080);
    assert.match(config.dataDir, /\/data$/);
    assert.equal(config.pgUrl, undefined);
    assert.equal(config.bootstrapAdminLoginId, "admin");
    assert.deepEqual(config.trustedProxies, ["127.0.0.1/32", "::1/128"]);
    assert.equal(config.maxBodyBytes, 10 * 1024 * 1024);
    assert.equal(config.ha, false);
    assert.equal(config.debug, false);
  });

  it("reads every flag also from SVC_<FLAG>, and the flag wins", () => {
    const env = { SVC_PORT: "9000", SVC_HA: "true", SVC_MAX_BODY_BYTES: "2MiB", SVC_EXTERNAL_URL: "https://svc.example.com/" };
    const fromEnv = loadConfig([], env);
    assert.equal(fromEnv.port, 9000);
    assert.equal(fromEnv.ha, true);
    assert.equal(fromEnv.maxBodyBytes, 2 * 1024 * 1024);
    assert.equal(fromEnv.externalUrl, "https://svc.example.com");
    assert.equal(loadConfig(["--port", "9100"], env).port, 9100);
  });

  it("takes PG_URL, else DATABASE_URL, and PORT when no port flag or variable is given", () => {
    assert.equal(loadConfig([], { DATABASE_URL: "postgres://h/db" }).pgUrl, "postgres://h/db");
    assert.equal(loadConfig([], { PG_URL: "postgres://a/x", DATABASE_URL: "postgres://b/y" }).pgUrl, "postgres://a/x");
    assert.equal(loadConfig([], { PORT: "5000" }).port, 5000);
    assert.equal(loadConfig([], { PORT: "5000", SVC_PORT: "5001" }).port, 5001);
  });

  it("gives a worker's ops port 8081 by default and leaves PORT (the web process's) to the API", () => {
    assert.equal(loadConfig([], {}, "worker").port, 8081);
    assert.equal(loadConfig([], { PORT: "8080" }, "worker").port, 8081);
    assert.equal(loadConfig([], { SVC_PORT: "9101" }, "worker").port, 9101);
    assert.equal(loadConfig(["--port", "0"], { SVC_PORT: "9101" }, "worker").port, 0);
    assert.throws(() => loadConfig(["--port", "x"], {}, "worker"), /--port/);
  });

  it("stores the bootstrap login id in lower case", () => {
    assert.equal(loadConfig(["--bootstrap-admin-login-id", "Root.Admin"], {}).bootstrapAdminLoginId, "root.admin");
  });

  const bad: [string[], Record<string, string>, RegExp][] = [
    [["--port", "http"], {}, /--port/],
    [["--port", "70000"], {}, /--port/],
    [["--max-body-bytes", "-1"], {}, /--max-body-bytes/],
    [["--max-body-bytes", "10 parsecs"], {}, /--max-body-bytes/],
    [["--trusted-proxies", "10.0.0.0/40"], {}, /--trusted-proxies/],
    [["--trusted-proxies", "proxy.local"], {}, /--trusted-proxies/],
    [["--external-url", "ftp://x"], {}, /--external-url/],
    [["--bootstrap-admin-login-id", "no spaces"], {}, /--bootstrap-admin-login-id/],
    [["--no-such-flag"], {}, /no-such-flag/],
    [[], { SVC_HA: "perhaps" }, /SVC_HA/],
    [[], { PG_URL: "mysql://x" }, /PG_URL/],
  ];
  for (const [argv, env, message] of bad) {
    it(`refuses ${[...argv, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)].join(" ")} with a clear error`, () => {
      assert.throws(() => loadConfig(argv, env), (error: Error) => error instanceof ConfigError && message.test(error.message));
    });
  }

  it("builds a trusted-proxy list that matches addresses and subnets", () => {
    const list = trustedProxyList(["10.0.0.0/8", "::1/128", "192.168.1.7"]);
    assert.equal(list.check("10.2.3.4", "ipv4"), true);
    assert.equal(list.check("11.0.0.1", "ipv4"), false);
    assert.equal(list.check("192.168.1.7", "ipv4"), true);
    assert.equal(list.check("::1", "ipv6"), true);
  });
});
