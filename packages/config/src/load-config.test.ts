import { randomBytes } from "node:crypto";
import { chromiumPath, DEFAULT_CHROMIUM } from "./chromium";
import { loadConfig, lockRenewMs, ConfigError } from "./load-config";

const base = {
  DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/x",
  REDIS_URL: "redis://127.0.0.1:6379",
  ENCRYPTION_KEYS: `1:${randomBytes(32).toString("base64")}`,
  FINGERPRINT_KEY: randomBytes(32).toString("base64"),
};

describe("loadConfig", () => {
  it("coerces types and fills defaults", () => {
    const config = loadConfig({ ...base, GATEWAY_PORT: "9000", TRUST_PROXY: "true", NODE_ENV: "test" });
    expect(config.gateway.port).toBe(9000);
    expect(config.gateway.trustProxy).toBe(true);
    expect(config.worker.concurrency).toBe(2);
    expect(config.targets.allowRanges).toEqual([]);
  });

  it("runs Debian's Chromium for the browser mode, or the binary CHROMIUM_PATH names, as chromiumPath does everywhere", () => {
    const env = { ...base, NODE_ENV: "test" };
    expect(loadConfig(env).worker.chromiumPath).toBe(DEFAULT_CHROMIUM.full);
    expect(loadConfig({ ...env, BROWSER_MODE: "shell" }).worker.chromiumPath).toBe(DEFAULT_CHROMIUM.shell);
    expect(loadConfig({ ...env, BROWSER_MODE: "shell", CHROMIUM_PATH: "/opt/shell" }).worker.chromiumPath).toBe(
      "/opt/shell",
    );
    expect(chromiumPath("shell", {})).toBe(DEFAULT_CHROMIUM.shell);
    expect(chromiumPath("full", { CHROMIUM_PATH: "/opt/chrome" })).toBe("/opt/chrome");
    expect(chromiumPath("full", { CHROMIUM_PATH: "" })).toBe(DEFAULT_CHROMIUM.full);
  });

  it("names every missing or wrong variable at once", () => {
    expect(() => loadConfig({ GATEWAY_PORT: "abc" })).toThrow(ConfigError);
    try {
      loadConfig({ GATEWAY_PORT: "abc" });
    } catch (err) {
      const text = String(err);
      for (const name of ["DATABASE_URL", "REDIS_URL", "ENCRYPTION_KEYS", "FINGERPRINT_KEY", "GATEWAY_PORT"]) {
        expect(text).toContain(name);
      }
    }
  });

  it("refuses private targets in production and unknown range names anywhere", () => {
    expect(() => loadConfig({ ...base, TARGET_ALLOW_RANGES: "loopback" })).toThrow(/production/);
    expect(() => loadConfig({ ...base, NODE_ENV: "development", TARGET_ALLOW_RANGES: "lan" })).toThrow(/unknown range/);
    expect(
      loadConfig({ ...base, NODE_ENV: "development", TARGET_ALLOW_RANGES: "loopback" }).targets.allowRanges,
    ).toEqual(["loopback"]);
  });

  it("takes a host map in tests and development only, to loopback, with loopback targets allowed", () => {
    const dev = { ...base, NODE_ENV: "development", TARGET_ALLOW_RANGES: "loopback" };
    const map = "accounts.google.com=127.0.0.1:41234,github.com=127.0.0.1:41235";
    expect(loadConfig(dev).targets.hostMap.size).toBe(0);
    expect(loadConfig({ ...dev, EGRESS_HOST_MAP: map }).targets.hostMap.get("github.com")).toEqual({
      address: "127.0.0.1",
      port: 41235,
    });
    expect(() =>
      loadConfig({ ...base, NODE_ENV: "production", MAIL_DOMAIN: "mail.example.com", EGRESS_HOST_MAP: map }),
    ).toThrow(/EGRESS_HOST_MAP must be empty in production/);
    // NODE_ENV defaults to production: a forgotten NODE_ENV never lets the map through.
    expect(() => loadConfig({ ...base, MAIL_DOMAIN: "mail.example.com", EGRESS_HOST_MAP: map })).toThrow(
      /EGRESS_HOST_MAP must be empty in production/,
    );
    expect(() => loadConfig({ ...dev, EGRESS_HOST_MAP: "github.com=10.0.0.1:80" })).toThrow(
      /EGRESS_HOST_MAP: github.com must map to a loopback address/,
    );
    expect(() => loadConfig({ ...dev, TARGET_ALLOW_RANGES: "", EGRESS_HOST_MAP: map })).toThrow(
      /needs TARGET_ALLOW_RANGES to include loopback/,
    );
  });

  it("takes mail-in's DNS servers as IP addresses with optional ports, and its trusted ARC sealers", () => {
    const prod = { ...base, MAIL_DOMAIN: "mail.example.com" };
    expect(loadConfig(prod).mail).toMatchObject({
      dnsServers: [],
      arcTrustedSealers: ["google.com", "microsoft.com", "messagingengine.com"],
    });
    expect(
      loadConfig({
        ...prod,
        MAIL_DNS_SERVERS: "10.0.0.53, 127.0.0.1:5353,[::1]:53,2001:db8::53",
        MAIL_ARC_TRUSTED_SEALERS: "Google.com",
      }).mail,
    ).toMatchObject({
      dnsServers: ["10.0.0.53", "127.0.0.1:5353", "[::1]:53", "2001:db8::53"],
      arcTrustedSealers: ["google.com"],
    });
    expect(() => loadConfig({ ...prod, MAIL_DNS_SERVERS: "dns.example.com" })).toThrow(
      /MAIL_DNS_SERVERS: "dns.example.com" is not an IP address/,
    );
    expect(() => loadConfig({ ...prod, MAIL_DNS_SERVERS: "10.0.0.53:99999" })).toThrow(/MAIL_DNS_SERVERS/);
  });

  it("takes trusted certificate keys in tests and development only", () => {
    const spki = Buffer.alloc(32, 7).toString("base64");
    expect(loadConfig({ ...base, NODE_ENV: "test" }).worker.trustedSpki).toEqual([]);
    expect(loadConfig({ ...base, NODE_ENV: "test", BROWSER_TRUSTED_SPKI: spki }).worker.trustedSpki).toEqual([spki]);
    expect(() => loadConfig({ ...base, NODE_ENV: "test", BROWSER_TRUSTED_SPKI: "abc" })).toThrow(
      /not a base64 SHA-256 hash/,
    );
    expect(() => loadConfig({ ...base, MAIL_DOMAIN: "mail.example.com", BROWSER_TRUSTED_SPKI: spki })).toThrow(
      /BROWSER_TRUSTED_SPKI must be empty in production/,
    );
  });

  it("builds the CAPTCHA solver's settings only when one is configured, with its key", () => {
    const test = { ...base, NODE_ENV: "test" };
    expect(loadConfig(test).captchaSolver).toBeNull();
    expect(
      loadConfig({ ...test, CAPTCHA_SOLVER: "2captcha", CAPTCHA_SOLVER_KEY: "k3y-0123456789" }).captchaSolver,
    ).toEqual({
      provider: "2captcha",
      url: "https://2captcha.com",
      key: "k3y-0123456789",
    });
    expect(() => loadConfig({ ...test, CAPTCHA_SOLVER: "2captcha" })).toThrow(/CAPTCHA_SOLVER_KEY is required/);
    expect(() => loadConfig({ ...test, CAPTCHA_SOLVER: "anticaptcha", CAPTCHA_SOLVER_KEY: "k3y-0123456789" })).toThrow(
      /CAPTCHA_SOLVER/,
    );
    const plain = {
      ...test,
      CAPTCHA_SOLVER: "2captcha",
      CAPTCHA_SOLVER_KEY: "k3y-0123456789",
      CAPTCHA_SOLVER_URL: "http://solver.internal",
    };
    expect(loadConfig(plain).captchaSolver?.url).toBe("http://solver.internal");
    expect(() => loadConfig({ ...plain, NODE_ENV: "production", MAIL_DOMAIN: "mail.example.com" })).toThrow(
      /must be https in production/,
    );
  });

  it("keeps dashboard cookies Secure outside development and test, and refuses insecure dashboard settings in production", () => {
    const prod = { ...base, NODE_ENV: "production", MAIL_DOMAIN: "mail.example.com" };
    expect(loadConfig(prod).dashboard).toEqual({
      host: "0.0.0.0",
      port: 8083,
      sessionTtlHours: 12,
      cookieSecure: true,
    });
    expect(loadConfig({ ...base, NODE_ENV: "test" }).dashboard.cookieSecure).toBe(false);
    expect(
      loadConfig({ ...base, NODE_ENV: "development", DASHBOARD_COOKIE_SECURE: "true" }).dashboard.cookieSecure,
    ).toBe(true);
    expect(loadConfig({ ...prod, DASHBOARD_URL: "https://dash.example.com/" }).dashboard.url).toBe(
      "https://dash.example.com",
    );
    expect(() => loadConfig({ ...prod, DASHBOARD_COOKIE_SECURE: "false" })).toThrow(
      /DASHBOARD_COOKIE_SECURE must not be false in production/,
    );
    expect(() => loadConfig({ ...prod, DASHBOARD_URL: "http://dash.example.com" })).toThrow(
      /DASHBOARD_URL must be https in production/,
    );
  });

  it("takes over a dead worker's jobs within 40 s by default, and refuses a stalled check no shorter than the lock", () => {
    expect(loadConfig({ ...base, NODE_ENV: "test" }).worker).toMatchObject({
      lockMs: 30_000,
      stalledCheckMs: 10_000,
      maxStalled: 1,
      sweepEveryMs: 60_000,
    });
    expect(() =>
      loadConfig({
        ...base,
        NODE_ENV: "test",
        REDIS_FAILOVER_WAIT_MS: "1000",
        WORKER_LOCK_MS: "5000",
        WORKER_STALLED_CHECK_MS: "5000",
      }),
    ).toThrow(/WORKER_STALLED_CHECK_MS must be below WORKER_LOCK_MS/);
  });

  it("renews a running job's claim often enough to outlast a Redis failover the service waits out, and refuses a claim shorter than that wait", () => {
    // Defaults: a 30 s claim, a 20 s failover wait: renewed every 8 s, so a renewal held up 20 s still lands at 28 s.
    expect(loadConfig({ ...base, NODE_ENV: "test" }).worker.lockRenewMs).toBe(8000);
    expect(lockRenewMs(30_000, 20_000) + 20_000).toBeLessThan(30_000);
    // A short failover wait keeps BullMQ's own rhythm (every half of the claim).
    expect(lockRenewMs(4000, 1000)).toBe(1000);
    expect(lockRenewMs(60_000, 5000)).toBe(30_000);
    expect(() => loadConfig({ ...base, NODE_ENV: "test", WORKER_LOCK_MS: "20000" })).toThrow(
      /WORKER_LOCK_MS must be at least REDIS_FAILOVER_WAIT_MS \+ 3 s/,
    );
    expect(
      loadConfig({ ...base, NODE_ENV: "test", WORKER_LOCK_MS: "20000", REDIS_FAILOVER_WAIT_MS: "5000" }).worker
        .lockRenewMs,
    ).toBe(10_000);
  });

  it("refuses a fingerprint key of the wrong size", () => {
    expect(() =>
      loadConfig({ ...base, FINGERPRINT_KEY: Buffer.alloc(31).toString("base64") + "AAAAAAAAAAAAAAA" }),
    ).toThrow(/FINGERPRINT_KEY/);
  });
  it("runs on one Redis, or on a Redis Cluster named by a redis+cluster:// URL or by REDIS_CLUSTER_NODES", () => {
    const test = { ...base, NODE_ENV: "test" };
    const { REDIS_URL: _, ...noRedis } = test;
    expect(loadConfig(test).redis).toMatchObject({ url: "redis://127.0.0.1:6379", cluster: null });
    expect(
      loadConfig({ ...noRedis, REDIS_URL: "redis+cluster://app:s%40cret@10.0.0.1:7000,[::1]:7001" }).redis.cluster,
    ).toEqual({
      nodes: [
        { host: "10.0.0.1", port: 7000 },
        { host: "::1", port: 7001 },
      ],
      username: "app",
      password: "s@cret",
      tls: false,
    });
    expect(loadConfig({ ...noRedis, REDIS_URL: "redis+cluster://app@a:7000" }).redis.cluster).toMatchObject({
      username: "app",
      password: undefined,
    });
    expect(loadConfig({ ...noRedis, REDIS_CLUSTER_NODES: "a:7000, b:7001" }).redis.cluster).toEqual({
      nodes: [
        { host: "a", port: 7000 },
        { host: "b", port: 7001 },
      ],
      tls: false,
    });
    // Beside the nodes, REDIS_URL brings the credentials and TLS.
    expect(
      loadConfig({ ...test, REDIS_URL: "rediss://:pw@a:7000", REDIS_CLUSTER_NODES: "a:7000" }).redis.cluster,
    ).toMatchObject({ password: "pw", tls: true });
    expect(() => loadConfig(noRedis)).toThrow(/REDIS_URL is required \(or REDIS_CLUSTER_NODES/);
    expect(() => loadConfig({ ...noRedis, REDIS_CLUSTER_NODES: "a:70000,b" })).toThrow(
      /"a:70000" is not host:port[\s\S]*"b" is not host:port/,
    );
    expect(() => loadConfig({ ...test, REDIS_URL: "redis+cluster://a:7000", REDIS_CLUSTER_NODES: "a:7000" })).toThrow(
      /both name the cluster's nodes/,
    );
  });
});
