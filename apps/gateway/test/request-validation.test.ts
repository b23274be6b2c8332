import { call, closeDatabase, newTenant, sitesUrl } from "@authsvc/devstack";

let key: string;
beforeAll(async () => {
  ({ key } = await newTenant());
});
afterAll(closeDatabase);

const valid = () => ({
  domain: `${sitesUrl()}/classic/login`,
  login_method: "password",
  cred: { username: "u", password: "p" },
});

describe("POST /v1/login input errors", () => {
  it("answers malformed JSON with 400 invalid_json", async () => {
    const res = await call("POST", "/v1/login", { key, raw: '{"domain": ' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_json");
  });

  it("names each wrong field and why", async () => {
    const res = await call("POST", "/v1/login", {
      key,
      body: { domain: 42, cred: { username: ["x"] }, useCache: "yes", extra: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    const fields = res.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(["/domain", "/cred/username", "/useCache", "/extra"]));
    expect(res.body.error.details.find((d: any) => d.field === "/extra").message).toBe("is not a known field");
  });

  it("requires cred and domain, and an http(s) URL", async () => {
    const missing = await call("POST", "/v1/login", { key, body: { login_method: "password" } });
    expect(missing.body.error.details).toEqual(
      expect.arrayContaining([
        { field: "/cred", message: "is required" },
        { field: "/domain", message: "is required" },
      ]),
    );
    const ftp = await call("POST", "/v1/login", { key, body: { ...valid(), domain: "ftp://example.com/login" } });
    expect(ftp.status).toBe(400);
    expect(ftp.body.error.details).toContainEqual({ field: "/domain", message: "must be an http or https URL" });
    const userinfo = await call("POST", "/v1/login", {
      key,
      body: { ...valid(), domain: "http://u:p@127.0.0.1/login" },
    });
    expect(userinfo.status).toBe(400);
  });

  it("accepts either method spelling, refuses both when they differ, and requires one", async () => {
    const both = await call("POST", "/v1/login", { key, body: { ...valid(), loginMethod: "totp" } });
    expect(both.status).toBe(400);
    expect(both.body.error.details[0].field).toBe("/loginMethod");
    const { login_method: _, ...none } = valid();
    const neither = await call("POST", "/v1/login", { key, body: none });
    expect(neither.status).toBe(400);
    expect(neither.body.error.details[0].field).toBe("/login_method");
    const unknown = await call("POST", "/v1/login", { key, body: { ...none, loginMethod: "carrier_pigeon" } });
    expect(unknown.status).toBe(400);
  });

  it("checks an oauth login's provider and provider account before it starts a job", async () => {
    const unnamed = await call("POST", "/v1/login", { key, body: { ...valid(), login_method: "oauth" } });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.error.details.map((d: { field: string }) => d.field)).toEqual(["/cred/provider"]);
    const named = await call("POST", "/v1/login", {
      key,
      body: { ...valid(), login_method: "oauth_google", cred: { ...valid().cred, provider: "https://id.example.com" } },
    });
    expect(named.status).toBe(400);
    expect(named.body.error.details.map((d: { field: string }) => d.field)).toEqual(["/cred/provider"]);
    const { password: _, ...noPassword } = valid().cred;
    const passwordless = await call("POST", "/v1/login", {
      key,
      body: { ...valid(), login_method: "oauth_github", cred: noPassword },
    });
    expect(passwordless.status).toBe(400);
    expect(passwordless.body.error.details.map((d: { field: string }) => d.field)).toEqual(["/cred/password"]);
  });

  it("requires the TOTP secret, besides password and identifier, for totp auth", async () => {
    const res = await call("POST", "/v1/login", { key, body: { ...valid(), login_method: "totp" } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: "/cred/totpSecret", message: "is required for login_method totp" },
    ]);
  });

  it("requires a password for password auth, and an identifier for totp (a password login may have none)", async () => {
    const res = await call("POST", "/v1/login", { key, body: { ...valid(), cred: {} } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: any) => d.field)).toEqual(["/cred/password"]);
    const totp = await call("POST", "/v1/login", { key, body: { ...valid(), login_method: "totp", cred: {} } });
    expect(totp.body.error.details.map((d: any) => d.field)).toEqual([
      "/cred/username",
      "/cred/password",
      "/cred/totpSecret",
    ]);
  });

  it("refuses bodies that are too large, and bodies that are not JSON", async () => {
    const big = await call("POST", "/v1/login", {
      key,
      body: { ...valid(), additionalFields: { note: "x".repeat(200_000) } },
    });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe("payload_too_large");
    const form = await call("POST", "/v1/login", {
      key,
      raw: "domain=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe("unsupported_media_type");
  });

  it("refuses private and metadata targets with 422 target_not_allowed", async () => {
    for (const domain of [
      "http://10.0.0.5/login",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00::1]/login",
    ]) {
      const res = await call("POST", "/v1/login", { key, body: { ...valid(), domain } });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("target_not_allowed");
    }
  });

  it("answers URLs that pass the schema but not the URL parser with 400", async () => {
    for (const domain of ["http://999.999.999.999/login", "http://a:99999/login", "http://xn--a/login"]) {
      const res = await call("POST", "/v1/login", { key, body: { ...valid(), domain } });
      expect([domain, res.status, res.body.error.code]).toEqual([domain, 400, "invalid_request"]);
    }
  });

  it("answers a body with a broken or unknown encoding and a malformed path with 4xx, never 500", async () => {
    const gzip = await call("POST", "/v1/login", {
      key,
      raw: "not gzip at all",
      headers: { "content-encoding": "gzip" },
    });
    expect(gzip.status).toBe(400);
    expect(gzip.body.error.code).toBe("invalid_request");
    const br = await call("POST", "/v1/login", { key, raw: "{}", headers: { "content-encoding": "compress" } });
    expect(br.status).toBe(415);
    const path = await call("GET", "/v1/jobs/%E0%A4%A", { key });
    expect(path.status).toBe(400);
    expect(path.body.error.requestId).toMatch(/^req_/);
  });

  it("answers unknown routes and job ids with 404 in the same shape", async () => {
    const route = await call("GET", "/v1/nothing-here", { key });
    expect(route.status).toBe(404);
    expect(route.body.error.code).toBe("not_found");
    const job = await call("GET", "/v1/jobs/not-a-job", { key });
    expect(job.status).toBe(404);
  });
});
