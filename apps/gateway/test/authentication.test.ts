import { openApiDocument } from "@authsvc/contracts";
import { call, closeDatabase, newTenant, revokeKey } from "@authsvc/devstack";

afterAll(closeDatabase);

function expectUnauthorized(answer: { status: number; body: any; headers: Headers }) {
  expect(answer.status).toBe(401);
  expect(answer.body.error).toMatchObject({
    code: "unauthorized",
    message: expect.any(String),
    requestId: expect.stringMatching(/^req_/),
  });
  expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
  expect(answer.headers.get("x-request-id")).toBe(answer.body.error.requestId);
}

describe("API key authentication", () => {
  it("refuses a missing, malformed, unknown or foreign-format key with 401 and the error shape", async () => {
    expectUnauthorized(await call("POST", "/v1/login", { body: {} }));
    expectUnauthorized(await call("POST", "/v1/login", { body: {}, headers: { authorization: "Basic dXNlcjpwYXNz" } }));
    expectUnauthorized(await call("POST", "/v1/login", { body: {}, headers: { authorization: "Bearer" } }));
    expectUnauthorized(await call("POST", "/v1/login", { body: {}, key: "pk_" + "A".repeat(43) }));
    expectUnauthorized(await call("POST", "/v1/login", { body: {}, key: "sk_live_whatever" }));
    expectUnauthorized(await call("GET", "/v1/jobs/job_0000000000000000000000", { key: "pk_short" }));
  });

  it("accepts a valid key and refuses it once revoked", async () => {
    const { key, keyId } = await newTenant();
    const before = await call("POST", "/v1/login", { key, body: {} });
    expect(before.status).toBe(400); // authenticated, then the empty body is refused
    await revokeKey(keyId);
    expectUnauthorized(await call("POST", "/v1/login", { key, body: {} }));
  });

  it("refuses a key whose secret part was altered, even with a valid prefix", async () => {
    const { key } = await newTenant();
    const altered = key.slice(0, -4) + (key.endsWith("AAAA") ? "BBBB" : "AAAA");
    expectUnauthorized(await call("POST", "/v1/login", { key: altered, body: {} }));
  });

  it("keeps health endpoints and the API description open", async () => {
    expect((await call("GET", "/healthz")).status).toBe(200);
    const openapi = await call("GET", "/openapi.json");
    expect(openapi.body.openapi).toBe("3.1.0");
    // Which paths it lists is apps/gateway/src/openapi-covers-routes.test.ts's to check, against the app's routes.
    expect(openapi.body).toEqual(JSON.parse(JSON.stringify(openApiDocument)));
    expect((await call("GET", "/readyz")).body).toEqual({ ok: true, database: true, redis: true });
  });
});
