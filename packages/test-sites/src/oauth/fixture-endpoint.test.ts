import { startTestSites, type TestSites } from "../server";

// The e2e tests run in another process than the stack: they find the OAuth fixtures through the main app.
describe("the test sites' OAuth fixtures", () => {
  let sites: TestSites;
  beforeAll(async () => {
    sites = await startTestSites();
  });
  afterAll(async () => {
    await sites?.close();
  });

  it("tells where Acme ID and its sites run, and they answer", async () => {
    const found = (await (await fetch(`${sites.url}/__fixture/oauth`)).json()) as {
      issuer: string;
      sites: { a: string; b: string };
    };
    expect(found).toEqual({ issuer: sites.oauth.issuer, sites: sites.oauth.sites });
    const discovery = (await (await fetch(`${found.issuer}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
    };
    expect(discovery.issuer).toBe(found.issuer);
    const login = await (await fetch(`${found.sites.a}/login`)).text();
    expect(login).toContain("Continue with Acme ID");
    expect(await (await fetch(`${sites.url}/`)).text()).toContain(`${found.sites.b}/login-popup`);
  });

  it("counts password submissions and takes new users through the provider's control surface", async () => {
    const added = await fetch(`${sites.oauth.issuer}/__fixture/users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "Control@Acme.test", password: "pw" }),
    });
    expect(added.status).toBe(200);
    const read = async () =>
      (await (await fetch(`${sites.oauth.issuer}/__fixture/users/control@acme.test`)).json()) as {
        passwordSubmissions: number;
      };
    expect(await read()).toMatchObject({ passwordSubmissions: 0 });
    const linked = await fetch(`${sites.oauth.sites.b}/__fixture/links`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "control@acme.test", username: "ctl" }),
    });
    expect(await linked.json()).toEqual({ username: "ctl", email: "control@acme.test" });
    const { accounts } = (await (await fetch(`${sites.oauth.sites.b}/__fixture/accounts`)).json()) as {
      accounts: Array<{ username: string }>;
    };
    expect(accounts.map((a) => a.username)).toContain("ctl");
    expect(await (await fetch(`${sites.oauth.sites.b}/__fixture/sessions/nope`)).json()).toEqual({
      valid: false,
      username: null,
    });
  });
});
