import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "puppeteer-core";
import { call, closeDatabase, database } from "@authsvc/devstack";
import { byName, dashboardUrl, launchBrowser, newEmail, Person, postForm } from "./dashboard-browser";

// The dashboard in headless Chromium: an account, an organization and a key that the API takes; the key
// revoked and refused at once; forms from another site refused; one org's member never sees another's.
let browser: Browser;
const PASSWORD = "dashboard-pass-123";
let alice: Person;
let orgA: string;

beforeAll(async () => {
  browser = await launchBrowser();
  alice = await Person.open(browser);
  await alice.signUp(newEmail("alice"), PASSWORD);
  orgA = await alice.createOrganization("Alice Inc");
});
afterAll(async () => {
  await browser?.close();
  await closeDatabase();
});

describe("accounts, organizations and API keys", () => {
  it("creates a key shown once that the API takes; revoked, the API answers 401 at once", async () => {
    expect(await alice.page.$(byName("API keys", "link"))).not.toBeNull();
    const key = await alice.createApiKey(orgA, "ci key");
    expect(key).toMatch(/^pk_[0-9A-Za-z]{43}$/);
    expect((await call("GET", "/v1/credentials", { key })).status).toBe(200);

    // Listed by name and public prefix; the secret is never on the page again.
    await alice.goto(`/o/${orgA}/keys`);
    const page = await alice.page.content();
    expect(page).toContain("ci key");
    expect(page).toContain(key.slice(0, 15));
    expect(page).not.toContain(key);

    const row = await alice.page.waitForSelector(`xpath///tr[td[1][text()="ci key"]]`);
    const revoke = await row!.waitForSelector(byName("Revoke", "button"));
    await Promise.all([alice.page.waitForNavigation(), revoke!.click()]);
    await alice.press("Revoke key");
    expect((await call("GET", "/v1/credentials", { key })).status).toBe(401);
    expect(await alice.page.$eval(`xpath///tr[td[1][text()="ci key"]]`, (tr) => (tr as HTMLElement).innerText)).toMatch(
      /UTC\s*$/,
    );
  });

  it("refuses a form posted from another site, even with the session cookie the browser sends along", async () => {
    const key = await alice.createApiKey(orgA, "target of csrf");
    const { keyId } = (await database().apiKeys.list(orgA))
      .map((k) => ({ keyId: k.id, name: k.name }))
      .find((k) => k.name === "target of csrf")!;
    // An attacker's page on another origin that posts the revoke form as soon as it opens.
    const attacker: Server = createServer((_req, res) => {
      res.setHeader("content-type", "text/html");
      res.end(
        `<form id="f" method="post" action="${dashboardUrl()}/o/${orgA}/keys/${keyId}/revoke"><input name="_csrf" value="guess"></form><script>document.getElementById("f").submit()</script>`,
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    try {
      const tab = await alice.context.newPage();
      const [response] = await Promise.all([
        tab.waitForNavigation({ waitUntil: "domcontentloaded" }),
        tab.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`),
      ]);
      expect(response!.status()).toBe(403);
      await tab.close();
    } finally {
      attacker.close();
    }
    expect((await call("GET", "/v1/credentials", { key })).status).toBe(200);

    // Outside a browser: the right token from a foreign Origin, or our Origin without the token, are refused too.
    const { cookie, csrf } = await alice.credentials();
    const path = `/o/${orgA}/keys/${keyId}/revoke`;
    expect((await postForm(path, { _csrf: csrf }, { cookie, origin: "http://evil.example" })).status).toBe(403);
    expect((await postForm(path, { _csrf: "x" }, { cookie, origin: new URL(dashboardUrl()).origin })).status).toBe(403);
    expect((await postForm(path, {}, { cookie })).status).toBe(403);
    expect((await call("GET", "/v1/credentials", { key })).status).toBe(200);
  });

  it("never shows one organization's data to a member of another, nor lets them change it", async () => {
    const key = await alice.createApiKey(orgA, "alice only");
    const keyA = (await database().apiKeys.list(orgA)).find((k) => k.name === "alice only")!;
    const bob = await Person.open(browser);
    try {
      await bob.signUp(newEmail("bob"), PASSWORD);
      const orgB = await bob.createOrganization("Bob LLC");
      for (const page of ["keys", "jobs", "credentials", "sessions", "inboxes", "webhooks", "members"]) {
        const res = await bob.goto(`/o/${orgA}/${page}`);
        expect([page, res!.status()]).toEqual([page, 404]);
        expect(await bob.page.content()).not.toContain("alice only");
      }
      // Bob's own org in the path, Alice's key id in the form: not found, and the key still works.
      await bob.goto(`/o/${orgB}/keys`);
      const { cookie, csrf } = await bob.credentials();
      const origin = new URL(dashboardUrl()).origin;
      expect((await postForm(`/o/${orgB}/keys/${keyA.id}/revoke`, { _csrf: csrf }, { cookie, origin })).status).toBe(
        404,
      );
      expect((await postForm(`/o/${orgA}/keys/${keyA.id}/revoke`, { _csrf: csrf }, { cookie, origin })).status).toBe(
        404,
      );
      expect((await call("GET", "/v1/credentials", { key })).status).toBe(200);
      await bob.goto(`/o/${orgB}/keys`);
      expect(await bob.page.content()).not.toContain("alice only");
    } finally {
      await bob.close();
    }
  });

  it("lets a second person join by invitation link, as a member", async () => {
    await alice.goto(`/o/${orgA}/members`);
    await alice.press("Create invitation link");
    const link = await alice.page.$eval("#invite-link", (e) => e.textContent!.trim());
    const carol = await Person.open(browser);
    try {
      await carol.page.goto(link);
      await carol.press("Create an account", "link");
      await carol.fill("Email", newEmail("carol"));
      await carol.fill("Password", PASSWORD);
      await carol.press("Create account");
      await carol.press("Join Alice Inc");
      expect(carol.page.url()).toBe(`${dashboardUrl()}/o/${orgA}/keys`);
      await carol.goto(`/o/${orgA}/members`);
      expect(await carol.text()).toMatch(/carol-.*member/);
      // Used once: the link leads nowhere now.
      expect((await carol.page.goto(link))!.status()).toBe(404);
    } finally {
      await carol.close();
    }
  });
});

describe("sessions and sign-in", () => {
  it("changing the password signs out the other browsers", async () => {
    const email = newEmail("dana");
    const first = await Person.open(browser);
    const second = await Person.open(browser);
    try {
      await first.signUp(email, PASSWORD);
      await second.signIn(email, PASSWORD);
      await second.goto("/orgs");
      expect(second.page.url()).toBe(`${dashboardUrl()}/orgs`);
      await first.goto("/account");
      await first.fill("Current password", PASSWORD);
      await first.fill("New password", "a-new-password-456");
      await first.press("Change password");
      expect(await first.text()).toContain("Password changed");
      await second.goto("/orgs");
      expect(second.page.url()).toMatch(/\/signin\?next=/);
      await first.goto("/orgs");
      expect(first.page.url()).toBe(`${dashboardUrl()}/orgs`);
      const cookie = (await first.context.cookies()).find((c) => c.name.endsWith("dash_session"))!;
      expect([cookie.httpOnly, cookie.sameSite]).toEqual([true, "Lax"]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("limits failed sign-ins per email with a clear 429 page", async () => {
    const email = newEmail("eve");
    const person = await Person.open(browser);
    try {
      await person.signUp(email, PASSWORD);
      await person.press("Sign out");
      let last = 0;
      for (let i = 0; i < 11 && last !== 429; i++) last = (await person.signIn(email, "wrong-password-x"))!.status();
      expect(last).toBe(429);
      expect(await person.text()).toMatch(/Too many failed sign-ins\. Try again in \d+ minutes?\./);
      // The right password is refused too while the window is full.
      expect((await person.signIn(email, PASSWORD))!.status()).toBe(429);
    } finally {
      await person.close();
    }
  });

  it("our own login engine signs in to the dashboard through POST /v1/login", async () => {
    const email = newEmail("engine");
    const person = await Person.open(browser);
    await person.signUp(email, PASSWORD);
    const orgId = await person.createOrganization("Engine org");
    const apiKey = await person.createApiKey(orgId, "engine");
    await person.close();

    const res = await call("POST", "/v1/login", {
      key: apiKey,
      body: {
        domain: `${dashboardUrl()}/signin`,
        login_method: "password",
        cred: { username: email, password: PASSWORD },
      },
    });
    expect(res.status).toBe(200);
    const session = res.body.cookies.find((c: { name: string }) => c.name.endsWith("dash_session"));
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    const page = await fetch(`${dashboardUrl()}/o/${orgId}/keys`, {
      headers: { cookie: `${session.name}=${session.value}` },
      redirect: "manual",
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Sign out");
  });
});
