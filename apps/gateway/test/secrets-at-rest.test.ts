import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { Client } from "pg";
import { call, closeDatabase, database, loginBody, newSiteUser, newTenant, sitesUrl } from "@authsvc/devstack";
import { newTotpSecret } from "@authsvc/crypto";
import { PROXY_PASSWORD, startFixtureProxies } from "@authsvc/test-sites";

afterAll(closeDatabase);

async function redisDump(): Promise<string> {
  const redis = new Redis(process.env.REDIS_URL!);
  const parts: string[] = [];
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${process.env.REDIS_PREFIX}:*`, "COUNT", 500);
      for (const key of keys) {
        const type = await redis.type(key);
        if (type === "string") parts.push(key, (await redis.get(key)) ?? "");
        else if (type === "hash") parts.push(key, JSON.stringify(await redis.hgetall(key)));
        else if (type === "list") parts.push(key, JSON.stringify(await redis.lrange(key, 0, -1)));
        else if (type === "set") parts.push(key, JSON.stringify(await redis.smembers(key)));
        else if (type === "zset") parts.push(key, JSON.stringify(await redis.zrange(key, 0, -1)));
        else if (type === "stream") parts.push(key, JSON.stringify(await redis.xrange(key, "-", "+")));
      }
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
  return parts.join("\n");
}

async function postgresDump(): Promise<string> {
  const pg = new Client({ connectionString: process.env.DATABASE_URL });
  await pg.connect();
  try {
    const tables = await pg.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    const parts: string[] = [];
    for (const { tablename } of tables.rows) {
      const rows = await pg.query(`SELECT row_to_json(t)::text AS j FROM "${tablename}" t`);
      parts.push(...rows.rows.map((r) => r.j as string));
    }
    return parts.join("\n");
  } finally {
    await pg.end();
  }
}

describe("secrets at rest", () => {
  it("keeps no plaintext password, session cookie or token in Redis or Postgres", async () => {
    const { key, orgId } = await newTenant("Secrets org");
    const user = await newSiteUser("pw-Zq8Lr2Vx9Tn4Kc7Hd1");
    // Both fixture apps share one origin, and so one cache entry per user: the app needs a user of its own.
    const spaUser = await newSiteUser("pw-Mb3Wc6Yt1Gs8Fj5Pa0");
    const classic = await call("POST", "/v1/login", { key, body: loginBody("classic", user) });
    const spa = await call("POST", "/v1/login", { key, body: loginBody("spa", spaUser) });
    const pending = await call("POST", "/v1/login", {
      key,
      body: loginBody("classic", user, { useCache: false }),
      headers: { prefer: "respond-async" },
    });
    const totpSecret = newTotpSecret();
    const totpUser = await newSiteUser("pw-Hx4Nq7Rb2Lw9Dm6Ks3", { totpSecret });
    const totp = await call("POST", "/v1/login", {
      key,
      body: {
        domain: `${sitesUrl()}/cases/totp-split/login`,
        login_method: "password",
        cred: { ...totpUser, totpSecret },
      },
    });
    // A failed job keeps its input (for a replay) and its last page: both encrypted.
    const refusedUser = await newSiteUser("pw-Vn5Rk8Tq3Ws6Jy2Lb4");
    const refused = await call("POST", "/v1/login", {
      key,
      body: loginBody("classic", { username: refusedUser.username, password: "pw-Typo-Gd7Xm1Pc9Zh3" }),
    });
    expect(refused.body.error.code).toBe("invalid_credentials");
    expect([classic.status, spa.status, pending.status, totp.status]).toEqual([200, 200, 202, 200]);
    const cookie = classic.body.cookies.find((c: any) => c.name === "classic_sid").value as string;
    const token = spa.body.storageState.origins[0].localStorage[0].value as string;

    // Through an organization's proxy (its password), on a site that remembers the device (its cookie).
    const proxies = await startFixtureProxies();
    let deviceCookie: string;
    try {
      const proxy = (await call("POST", "/v1/proxies", { key, body: { url: proxies.http.url } })).body.id as string;
      const deviceSecret = newTotpSecret();
      const deviceUser = await newSiteUser("pw-Ty6Bn3Qw8Lz1Xc4Vm7", { totpSecret: deviceSecret });
      const remembered = await call("POST", "/v1/login", {
        key,
        body: {
          domain: `${sitesUrl()}/cases/trusted-device/login`,
          login_method: "password",
          cred: { ...deviceUser, totpSecret: deviceSecret },
          proxy,
        },
      });
      expect(remembered.status).toBe(200);
      deviceCookie = remembered.body.cookies.find((c: any) => c.name === "known_device").value as string;
    } finally {
      await proxies.close();
    }

    // A passkey the service added (its site is visited by name: a relying party is never an IP address).
    const passkeyUser = await newSiteUser("pw-Kc2Wn7Ty4Rb9Mq3Lx6");
    const passkeySite = `${sitesUrl().replace("127.0.0.1", "passkeys.localhost")}/cases/passkey-site/login`;
    expect(
      (
        await call("POST", "/v1/login", {
          key,
          body: { domain: passkeySite, login_method: "password", cred: passkeyUser },
        })
      ).status,
    ).toBe(200);
    const passkeyCredential = (await call("GET", "/v1/credentials", { key })).body.credentials.find(
      (c: any) => c.username === passkeyUser.username,
    ).credentialId as string;
    expect((await call("POST", `/v1/credentials/${passkeyCredential}/passkeys`, { key, body: {} })).status).toBe(201);
    expect(
      (
        await call("POST", "/v1/login", {
          key,
          body: {
            domain: passkeySite,
            login_method: "passkey",
            cred: { username: passkeyUser.username },
            useCache: false,
          },
        })
      ).status,
    ).toBe(200);
    const passkey = (await database().passkeys.keys(orgId, passkeyCredential))[0]?.key;
    expect(passkey?.privateKey).toEqual(expect.any(String));

    const [redis, postgres] = await Promise.all([redisDump(), postgresDump()]);
    const logs = readdirSync(process.env.E2E_LOG_DIR!)
      .map((f) => readFileSync(path.join(process.env.E2E_LOG_DIR!, f), "utf8"))
      .join("\n");
    expect(logs).toContain("login succeeded"); // the services' logs were read
    for (const secret of [
      PROXY_PASSWORD,
      deviceCookie,
      passkey!.privateKey,
      passkey!.credentialId,
      passkey!.userHandle!,
      passkeyUser.password,
    ]) {
      expect(redis).not.toContain(secret);
      expect(postgres).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    expect(redis.length).toBeGreaterThan(100); // the dump really saw the queue and cache
    expect(postgres).toContain(user.username); // and the tables
    expect(postgres).toContain(refused.headers.get("x-job-id")); // its kept input and screenshot rows were dumped
    for (const secret of [
      user.password,
      spaUser.password,
      totpUser.password,
      totpSecret,
      cookie,
      token,
      key,
      "pw-Typo-Gd7Xm1Pc9Zh3",
    ]) {
      expect(redis).not.toContain(secret);
      expect(postgres).not.toContain(secret);
    }
  });
});
