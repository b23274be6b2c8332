import { openApiDocument } from "@authsvc/contracts";
import { AuthClient } from "./client";
import { ROUTES } from "./routes";
import { json, scriptedServer } from "./testing/scripted-server";

const op = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

type Parameter = { name?: string; in?: string; $ref?: string };
type Operation = { operationId: string; parameters?: Parameter[] };
type PathItem = Record<string, unknown> & { servers?: unknown };
const document = openApiDocument as unknown as {
  paths: Record<string, PathItem>;
  components?: { parameters?: Record<string, Parameter> };
};
const METHODS = ["get", "post", "put", "patch", "delete"];

const resolve = (p: Parameter): Parameter =>
  p.$ref ? (document.components?.parameters?.[p.$ref.split("/").pop()!] ?? p) : p;

/**
 * Every operation of the API (paths under the document's /v1 server), as "METHOD /path". Path items with
 * servers of their own (the root's health probes and documentation pages) are not the API a client calls.
 */
function documentedOperations(): Map<string, { operationId: string; idempotent: boolean }> {
  const out = new Map<string, { operationId: string; idempotent: boolean }>();
  for (const [path, item] of Object.entries(document.paths)) {
    if (item.servers) continue;
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const idempotent = (operation.parameters ?? [])
        .map(resolve)
        .some((p) => p.in === "header" && p.name?.toLowerCase() === "idempotency-key");
      out.set(op(method, path), { operationId: operation.operationId, idempotent });
    }
  }
  return out;
}

// Not a client's to call: Twilio posts incoming SMS there, signed with the operator's Twilio token.
const NOT_FOR_CLIENTS = new Set(["POST /inbound/sms"]);

const sdkOperations = () =>
  new Map(
    Object.entries(ROUTES).map(([name, r]) => [
      op(r.method, r.path),
      { name, idempotent: "idempotent" in r && r.idempotent },
    ]),
  );

describe("the SDK against the OpenAPI document", () => {
  it("has a route for every documented operation, under the same operationId", () => {
    const sdk = sdkOperations();
    const missing = [...documentedOperations()]
      .filter(([key]) => !NOT_FOR_CLIENTS.has(key) && !sdk.has(key))
      .map(([key]) => key);
    expect(missing).toEqual([]);
    for (const [key, { operationId }] of documentedOperations())
      if (sdk.has(key)) expect([key, sdk.get(key)!.name]).toEqual([key, operationId]);
  });

  it("calls no route the document does not describe", () => {
    const documented = documentedOperations();
    expect([...sdkOperations().keys()].filter((key) => !documented.has(key))).toEqual([]);
  });

  it("sends Idempotency-Key wherever the document accepts one", () => {
    for (const [key, { idempotent }] of documentedOperations())
      if (idempotent) expect([key, sdkOperations().get(key)?.idempotent]).toEqual([key, true]);
  });
});

describe("each SDK method", () => {
  // One call per method: together they must reach every route of the table, and only those.
  const calls: Array<[string, (c: AuthClient) => Promise<unknown>]> = [
    [
      "login",
      (c) =>
        c.login({ domain: "http://site.test/login", login_method: "password", cred: { username: "u", password: "p" } }),
    ],
    ["signup", (c) => c.signup({ signup_method: "email", domain: "http://site.test/signup" })],
    ["refresh", (c) => c.refresh({ credentialId: "cred_1" })],
    ["getJob", (c) => c.jobs.get("job_1")],
    [
      "getJobEvents",
      async (c) => {
        for await (const _ of c.jobs.events("job_1")) void _;
      },
    ],
    ["answerJobInput", (c) => c.jobs.input("job_1", { code: "123456" })],
    ["listCredentials", (c) => c.credentials.list({ before: "cred_0" })],
    ["getCredential", (c) => c.credentials.get("cred_1")],
    ["deleteCredential", (c) => c.credentials.delete("cred_1")],
    ["forgetCredentialDevice", (c) => c.credentials.forgetDevice("cred_1")],
    ["createProxy", (c) => c.proxies.create({ url: "http://u:p@proxy.example.net:3128" })],
    ["listProxies", (c) => c.proxies.list()],
    ["deleteProxy", (c) => c.proxies.delete("prx_1")],
    ["verifyCredential", (c) => c.credentials.verify("cred_1", { code: "123456" })],
    ["enrolPasskey", (c) => c.credentials.enrolPasskey("cred_1", { settingsUrl: "http://site.test/settings" })],
    ["deletePasskey", (c) => c.credentials.deletePasskey("cred_1", "pk_1")],
    ["createEntryLink", (c) => c.credentials.entryLink({ domain: "http://site.test/login" })],
    ["getEntryLink", (c) => c.credentials.getEntryLink("elink_1")],
    ["createMailbox", (c) => c.mailboxes.create({ label: "x" })],
    ["listMailboxes", (c) => c.mailboxes.list()],
    ["getMailbox", (c) => c.mailboxes.get("mbx_1")],
    ["deleteMailbox", (c) => c.mailboxes.delete("mbx_1")],
    ["getForwardingMailbox", (c) => c.mailboxes.forwarding()],
    ["listMailboxMessages", (c) => c.mailboxes.messages("mbx_1", { limit: 5, includeBody: true })],
    ["listPhoneNumbers", (c) => c.phoneNumbers.list()],
    ["createWebhook", (c) => c.webhooks.create({ url: "https://hooks.test/x" })],
    ["listWebhooks", (c) => c.webhooks.list()],
    ["deleteWebhook", (c) => c.webhooks.delete("whk_1")],
  ];

  it("calls the route of its name, with an Idempotency-Key exactly on the routes that take one", async () => {
    const server = await scriptedServer((req, res) => {
      if (req.url.endsWith("/events"))
        return res
          .writeHead(200, { "content-type": "text/event-stream" })
          .end(`id: 1\nevent: succeeded\ndata: {"type":"succeeded","jobId":"job_1","at":"x"}\n\n`);
      if (req.method === "DELETE") return res.writeHead(204).end();
      json(res, 200, { mailboxes: [], phoneNumbers: [], webhooks: [], credentials: [], next: null });
    });
    try {
      const client = new AuthClient({ baseUrl: `${server.url}/v1`, apiKey: "pk_test" });
      expect(calls.map(([name]) => name).sort()).toEqual(Object.keys(ROUTES).sort());
      for (const [name, call] of calls) {
        const before = server.seen.length;
        await call(client);
        const [req] = server.seen.slice(before);
        const route = ROUTES[name as keyof typeof ROUTES];
        const pattern = new RegExp(`^/v1${route.path.replace(/\{\w+\}/g, "[^/?]+")}(\\?.*)?$`);
        expect([name, req!.method, pattern.test(req!.url), req!.headers["idempotency-key"] !== undefined]).toEqual([
          name,
          route.method,
          true,
          "idempotent" in route && route.idempotent,
        ]);
      }
    } finally {
      await server.close();
    }
  });
});
