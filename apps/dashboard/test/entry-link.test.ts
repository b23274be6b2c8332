import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "puppeteer-core";
import { newTotpSecret, parseTotpSecret, totpCode } from "@authsvc/crypto";
import {
  call,
  closeDatabase,
  database,
  gatewayUrl,
  newSiteUser,
  newTenant,
  REPO_ROOT,
  sitesUrl,
  waitFor,
} from "@authsvc/devstack";
import { byName, launchBrowser } from "./dashboard-browser";

let browser: Browser;
let tenant: Awaited<ReturnType<typeof newTenant>>;
let receiver: Server;
const received: Array<{ type: string; data: Record<string, unknown> }> = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      received.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  [browser, tenant] = await Promise.all([launchBrowser(), newTenant("Entry link org")]);
  const hook = await call("POST", "/v1/webhooks", {
    key: tenant.key,
    body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, events: ["credential.created"] },
  });
  expect(hook.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => receiver.close(resolve));
  await closeDatabase();
});

/** The end user on the link's page: types what is asked and sends it, then waits for the page to settle. */
async function enter(
  person: Page,
  typed: { username: string; password: string; totpSecret?: string },
): Promise<string> {
  await (await person.waitForSelector(byName("Username or email")))!.type(typed.username);
  await (await person.waitForSelector(byName("Password")))!.type(typed.password);
  if (typed.totpSecret)
    await (await person.waitForSelector(byName("Authenticator secret (only if you use an authenticator app)")))!.type(
      typed.totpSecret,
    );
  await Promise.all([
    person.waitForNavigation({ waitUntil: "domcontentloaded" }),
    person.click(byName("Save and sign in", "button")),
  ]);
  // The page loads itself again while the sign-in runs; it settles on the form (refused) or on its end.
  return waitFor("the page settled", async () => {
    const text = await person.$eval("main", (m) => (m as HTMLElement).innerText).catch(() => "");
    return /Checking your sign-in/.test(text) || text === "" ? null : text;
  });
}

describe("credentials the end user types on a hosted page", () => {
  it("a wrong password is refused in the site's words; the right one (with an authenticator secret) is checked, stored, told by webhook and used by a later refresh", async () => {
    const totpSecret = newTotpSecret();
    const user = await newSiteUser(undefined, { totpSecret });
    const loginUrl = `${sitesUrl()}/cases/otp-prompt/login`;
    const created = await call("POST", "/v1/credentials/entry-links", {
      key: tenant.key,
      body: { domain: loginUrl, collectionId: "end-users", expiresIn: 600 },
    });
    expect(created.status).toBe(201);
    const link = created.body;
    expect(created.headers.get("location")).toBe(`/v1/entry-links/${link.linkId}`);
    expect(link).toMatchObject({
      status: "open",
      site: new URL(sitesUrl()).origin,
      collectionId: "end-users",
      tries: 0,
      maxTries: 3,
      credentialId: null,
      jobId: null,
    });
    expect(link.url).toMatch(new RegExp(`^${process.env.E2E_DASHBOARD_URL}/enter/${link.linkId}\\.[A-Za-z0-9_-]{43}$`));

    const person = await (await browser.createBrowserContext()).newPage();
    expect((await person.goto(link.url, { waitUntil: "domcontentloaded" }))!.status()).toBe(200);
    const intro = await person.$eval("main", (m) => (m as HTMLElement).innerText);
    expect(intro).toContain("Entry link org");
    expect(intro).toContain(new URL(sitesUrl()).origin);

    // A typo first: the site's refusal, and the form again.
    const refused = await enter(person, { username: user.username, password: `${user.password}x` });
    expect(refused).toContain("The site said: Invalid username or password.");
    expect(refused).toContain("Tries left: 2");
    expect((await call("GET", `/v1/entry-links/${link.linkId}`, { key: tenant.key })).body).toMatchObject({
      status: "open",
      tries: 1,
      lastError: { code: "invalid_credentials" },
    });

    const saved = await enter(person, { ...user, totpSecret });
    expect(saved).toContain("Saved: your sign-in is stored.");
    const done = (await call("GET", `/v1/entry-links/${link.linkId}`, { key: tenant.key })).body;
    expect(done).toMatchObject({ status: "created", tries: 2, lastError: null });
    expect(done.credentialId).toMatch(/^cred_/);
    // The link is spent.
    expect((await fetch(link.url)).status).toBe(410);

    const told = await waitFor("credential.created", () =>
      received.find((e) => e.type === "credential.created" && e.data.linkId === link.linkId),
    );
    expect(told.data).toMatchObject({
      credentialId: done.credentialId,
      username: user.username,
      collectionId: "end-users",
    });
    expect(JSON.stringify(received)).not.toContain(user.password);

    // The agent platform signs in with the stored credential, never having seen the password (or the TOTP secret).
    const credential = (await call("GET", `/v1/credentials/${done.credentialId}`, { key: tenant.key })).body;
    expect(credential).toMatchObject({ username: user.username, collectionId: "end-users", status: "active" });
    const refreshed = await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId: done.credentialId } });
    expect(refreshed.status).toBe(200);
    const cookie = refreshed.body.cookies
      .map((c: { name: string; value: string }) => `${c.name}=${c.value}`)
      .join("; ");
    expect(
      (await fetch(`${sitesUrl()}/cases/otp-prompt/account`, { headers: { cookie }, redirect: "manual" })).status,
    ).toBe(200);

    // Nothing typed is kept in clear: not on the link, not on the job.
    const rows = JSON.stringify(await database().prisma.credentialEntryLink.findMany({ where: { id: link.linkId } }));
    expect(rows).not.toContain(user.password);
    await person.browserContext().close();
  });

  it("a step only the end user can do (their authenticator's code) sends them on to the hand-off page from the link's page", async () => {
    const totpSecret = newTotpSecret();
    const user = await newSiteUser(undefined, { totpSecret });
    const link = (
      await call("POST", "/v1/credentials/entry-links", {
        key: tenant.key,
        body: { domain: `${sitesUrl()}/cases/otp-prompt/login` },
      })
    ).body;
    const person = await (await browser.createBrowserContext()).newPage();
    await person.goto(link.url, { waitUntil: "domcontentloaded" });
    const asked = await enter(person, user);
    expect(asked).toMatch(/The site asks for one more step: .*code/i);
    const view = (await call("GET", `/v1/entry-links/${link.linkId}`, { key: tenant.key })).body;
    expect(view).toMatchObject({ status: "needs_input", input: { reason: "code", fields: ["code"] } });
    // The link's page leads to the hand-off page of its sign-in. It loads itself again every two seconds while
    // it waits: a read that meets the document being replaced reads the next one.
    const onward = await waitFor("the link's page's onward link", () =>
      person.$eval("a", (a) => (a as HTMLAnchorElement).href).catch(() => null),
    );
    expect(onward).toBe(view.input.handoffUrl);
    // The link's page loads itself again every two seconds while it waits, and on a loaded machine that reload
    // can take a click's place (the click lands on the document being replaced): the person clicks again, as a
    // person would, once the tab has loaded whatever came, until it shows the hand-off page. A link that led
    // nowhere never gets there.
    await waitFor("the hand-off page", async () => {
      if (person.url() === onward) return true;
      await Promise.all([
        person.waitForNavigation({ waitUntil: "domcontentloaded" }),
        person.click(byName("Finish signing in")).catch(() => undefined),
      ]);
      return person.url() === onward;
    });
    await person.waitForFunction(() =>
      document.querySelector("[role=status]")?.textContent?.startsWith("Waiting for you"),
    );
    const answered = await call("POST", `/v1/jobs/${view.jobId}/input`, {
      key: tenant.key,
      body: { code: totpCode(parseTotpSecret(totpSecret), Date.now()) },
    });
    expect(answered.status).toBe(202);
    const done = await waitFor("the link's credential", async () => {
      const v = (await call("GET", `/v1/entry-links/${link.linkId}`, { key: tenant.key })).body;
      return v.status === "created" || v.status === "open" ? v : null;
    });
    expect(done).toMatchObject({ status: "created", tries: 1 });
    await person.browserContext().close();
  });

  it("examples/entry-link.ts prints the link, and once the user signed in on it, the credential and a session", async () => {
    const user = await newSiteUser();
    const child = spawn(
      process.execPath,
      ["-r", path.join(REPO_ROOT, "scripts/swc-register.cjs"), "examples/entry-link.ts"],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          AUTHSVC_BASE_URL: `${gatewayUrl()}/v1`,
          AUTHSVC_API_KEY: tenant.key,
          LOGIN_URL: `${sitesUrl()}/classic/login`,
        },
      },
    );
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (out += c.toString("utf8")));
    const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
    const url = await waitFor(
      "the example's link",
      () => /send this to your user \(until [^)]+\): (\S+)/.exec(out)?.[1],
    );
    // The user, on the page the example printed.
    const form = new URLSearchParams({ username: user.username, password: user.password });
    const sent = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(url).origin },
      body: form,
      redirect: "manual",
    });
    expect(sent.status).toBe(303);
    expect(await exited).toBe(0);
    expect(out).toMatch(/credential: cred_\w+; signed in with \d+ cookie\(s\) for /);
    expect(out).not.toContain(user.password);
  });

  it("checks its request; another organization's key cannot read a link; a forged or unknown token is 404", async () => {
    const bad = await call("POST", "/v1/credentials/entry-links", {
      key: tenant.key,
      body: { domain: `${sitesUrl()}/cases/otp-prompt/login`, expiresIn: 30 * 86_400, login_method: "magic_link" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      "/expiresIn",
      "/login_method",
    ]);
    const withUser = await call("POST", "/v1/credentials/entry-links", {
      key: tenant.key,
      body: { domain: "http://ada:pw@127.0.0.1:9/login" },
    });
    expect([withUser.status, withUser.body.error.code]).toEqual([400, "invalid_request"]);
    const outside = await call("POST", "/v1/credentials/entry-links", {
      key: tenant.key,
      body: { domain: "http://169.254.169.254/login" },
    });
    expect([outside.status, outside.body.error.code]).toEqual([422, "target_not_allowed"]);

    const link = (
      await call("POST", "/v1/credentials/entry-links", {
        key: tenant.key,
        body: { domain: `${sitesUrl()}/cases/otp-prompt/login` },
      })
    ).body;
    const other = await newTenant("Another org");
    expect((await call("GET", `/v1/entry-links/${link.linkId}`, { key: other.key })).status).toBe(404);
    expect((await fetch(link.url.replace(/.{4}$/, "AAAA"))).status).toBe(404);
    // A post from another origin starts nothing.
    const forged = await fetch(link.url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example" },
      body: "username=a&password=b",
    });
    expect(forged.status).toBe(403);
    expect((await call("GET", `/v1/entry-links/${link.linkId}`, { key: tenant.key })).body).toMatchObject({
      status: "open",
      tries: 0,
    });
  });
});
