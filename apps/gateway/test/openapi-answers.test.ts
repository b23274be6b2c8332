import { randomUUID } from "node:crypto";
import { openApiDocument } from "@authsvc/contracts";
import { absoluteRefs, openApiAjv } from "@authsvc/contracts/src/openapi-validator";
import { call, closeDatabase, gatewayUrl, loginBody, newSiteUser, newTenant, type Answer } from "@authsvc/devstack";

// The document against the real service: each answer's status is documented for its operation, its body
// matches the documented schema, and every header of ours it carries is documented on that response.
// One browser login serves the 202, its event stream, the job, the idempotent replay and the mismatch.

type Responses = Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: object }> }>;
const paths = openApiDocument.paths as unknown as Record<string, Record<string, { responses: Responses }>>;
const ajv = openApiAjv();
/** The response headers the document defines (compared in lower case, as fetch gives them). */
const OUR_HEADERS = Object.keys(openApiDocument.components.headers).map((h) => h.toLowerCase());

function expectDocumented(method: string, path: string, answer: Answer, mediaType = "application/json"): void {
  const response = paths[path]?.[method]?.responses[String(answer.status)];
  expect([method, path, answer.status, response ? "documented" : "not documented"]).toEqual([
    method,
    path,
    answer.status,
    "documented",
  ]);
  const schema = response!.content?.[mediaType]?.schema;
  if (schema) {
    const validate = ajv.compile(absoluteRefs(schema));
    expect(validate(answer.body) ? [] : validate.errors).toEqual([]);
  }
  const documented = Object.keys(response!.headers ?? {}).map((h) => h.toLowerCase());
  const sent = [...answer.headers.keys()].filter((h) => OUR_HEADERS.includes(h));
  expect(sent.filter((h) => !documented.includes(h))).toEqual([]);
  expect(answer.headers.get("x-request-id")).toMatch(/^req_/);
}

let key: string;
beforeAll(async () => {
  ({ key } = await newTenant("OpenAPI answers org"));
});
afterAll(() => closeDatabase());

describe("answers match the OpenAPI document", () => {
  it("a login's 202, its event stream, the job, an idempotent replay and a mismatch", async () => {
    const user = await newSiteUser("openapi-pass-1");
    const body = loginBody("classic", user, { useCache: false });
    const idempotencyKey = randomUUID();
    const accepted = await call("POST", "/v1/login", {
      key,
      body,
      headers: { prefer: "respond-async", "idempotency-key": idempotencyKey },
    });
    expect(accepted.status).toBe(202);
    expectDocumented("post", "/login", accepted);
    const { jobId } = accepted.body as { jobId: string };

    const stream = await fetch(`${gatewayUrl()}/v1/jobs/${jobId}/events`, {
      headers: { authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(50_000),
    });
    const raw = await stream.text();
    expect([stream.status, stream.headers.get("content-type")]).toEqual([
      200,
      expect.stringMatching(/^text\/event-stream/),
    ]);
    const messages = raw
      .split("\n\n")
      .filter((block) => /^data: /m.test(block))
      .map((block) =>
        Object.fromEntries(
          block
            .split("\n")
            .filter((l) => !l.startsWith(":"))
            .map((l) => [l.slice(0, l.indexOf(": ")), l.slice(l.indexOf(": ") + 2)]),
        ),
      );
    expectDocumented(
      "get",
      "/jobs/{jobId}/events",
      { status: stream.status, headers: stream.headers, body: messages },
      "text/event-stream",
    );
    for (const message of messages) {
      const event = JSON.parse(message.data!) as { type: string };
      expect(ajv.validate("urn:authsvc:JobEvent", event) ? [] : ajv.errors).toEqual([]);
      expect(event.type).toBe(message.event);
    }
    expect(messages.at(-1)?.event).toBe("succeeded");

    const job = await call("GET", `/v1/jobs/${jobId}`, { key });
    expect(job.body.status).toBe("succeeded");
    expectDocumented("get", "/jobs/{jobId}", job);

    const replayed = await call("POST", "/v1/login", { key, body, headers: { "idempotency-key": idempotencyKey } });
    expect([replayed.status, replayed.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
    expectDocumented("post", "/login", replayed);

    const mismatch = await call("POST", "/v1/login", {
      key,
      body: { ...body, useCache: true },
      headers: { "idempotency-key": idempotencyKey },
    });
    expect(mismatch.body.error?.code).toBe("idempotency_mismatch");
    expectDocumented("post", "/login", mismatch);
  });

  it("errors, lists and the public routes", async () => {
    expectDocumented("get", "/jobs/{jobId}", await call("GET", "/v1/jobs/job_0000000000000000000000", { key }));
    expectDocumented("post", "/login", await call("POST", "/v1/login", { key, body: { domain: "not a url" } }));
    expectDocumented("post", "/login", await call("POST", "/v1/login", { body: {} }));
    expectDocumented("get", "/credentials", await call("GET", "/v1/credentials", { key }));
    expectDocumented("get", "/mailboxes/forwarding", await call("GET", "/v1/mailboxes/forwarding", { key }));
    expectDocumented("get", "/healthz", await call("GET", "/healthz"));
    expectDocumented("get", "/readyz", await call("GET", "/readyz"));
    expectDocumented("get", "/openapi.json", await call("GET", "/openapi.json"));
  });
});
