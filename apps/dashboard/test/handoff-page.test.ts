import type { Browser, Page } from "puppeteer-core";
import { newTotpSecret, parseTotpSecret, totpCode } from "@authsvc/crypto";
import { call, closeDatabase, newSiteUser, newTenant, sitesUrl, waitFor } from "@authsvc/devstack";
import { byName, launchBrowser } from "./dashboard-browser";

let browser: Browser;
let tenant: Awaited<ReturnType<typeof newTenant>>;

beforeAll(async () => {
  [browser, tenant] = await Promise.all([launchBrowser(), newTenant("Hosted hand-off org")]);
});
afterAll(async () => {
  await browser?.close();
  await closeDatabase();
});

const job = async (jobId: string) => (await call("GET", `/v1/jobs/${jobId}`, { key: tenant.key })).body;

/**
 * Clicks, in the live view, where `selector` is on the site's page: the same page opened at the size the
 * live view shows (the same Chromium draws it the same way); `refusedOnce`: the form as it is shown again
 * after a refused submit.
 */
async function clickInLiveView(person: Page, pageUrl: string, selector: string, refusedOnce = false): Promise<void> {
  const view = (await person.waitForSelector(byName("Live view")))!;
  const size = await waitFor("a frame of the live view", () =>
    view.evaluate((img) =>
      (img as HTMLImageElement).naturalWidth > 0
        ? {
            width: Number((img as HTMLImageElement).dataset.pageWidth),
            height: Number((img as HTMLImageElement).dataset.pageHeight),
          }
        : null,
    ),
  );
  const probe = await (await browser.createBrowserContext()).newPage();
  await probe.setViewport(size);
  // Its images are not loaded: what the person reads is what the live view's page was served.
  await probe.setRequestInterception(true);
  probe.on("request", (r) => void (r.resourceType() === "image" ? r.abort() : r.continue()));
  await probe.goto(pageUrl, { waitUntil: "domcontentloaded" });
  if (refusedOnce) {
    // The form as the site shows it again, its refusal above it.
    await probe.click("button[type=submit]");
    await probe.waitForSelector("[role=alert]");
  }
  const field = (await (await probe.waitForSelector(selector))!.boundingBox())!;
  await probe.browserContext().close();
  const box = (await view.boundingBox())!;
  await person.mouse.click(
    box.x + ((field.x + field.width / 2) * box.width) / size.width,
    box.y + ((field.y + field.height / 2) * box.height) / size.height,
  );
}

/** How many needs_input events the job's event stream has sent (the stream replays them from its start). */
function needsInputEvents(jobId: string): { count(): number; close(): void } {
  const stop = new AbortController();
  let seen = 0;
  void (async () => {
    const res = await fetch(`${process.env.E2E_GATEWAY_URL}/v1/jobs/${jobId}/events`, {
      headers: { authorization: `Bearer ${tenant.key}` },
      signal: stop.signal,
    });
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      seen = text.split("event: needs_input").length - 1;
    }
  })().catch(() => undefined);
  return { count: () => seen, close: () => stop.abort() };
}

/** The job, once it ended. */
const ended = (jobId: string) =>
  waitFor("the job ended", async () => {
    const j = await job(jobId);
    return j.status === "succeeded" || j.status === "failed" ? j : null;
  });

const signsIn = async (site: string, cookies: Array<{ name: string; value: string }>) =>
  (
    await fetch(`${sitesUrl()}/cases/${site}/account`, {
      headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
      redirect: "manual",
    })
  ).status === 200;

describe("the hosted hand-off page", () => {
  it("shows the browser tab live; a person clicks the code field in it, types the code and presses Enter, and the caller gets the session", async () => {
    const totpSecret = newTotpSecret();
    const user = await newSiteUser(undefined, { totpSecret });
    const res = await call("POST", "/v1/login", {
      key: tenant.key,
      body: {
        domain: `${sitesUrl()}/cases/otp-prompt/login`,
        login_method: "password",
        cred: user,
        useCache: false,
        allowHandoff: true,
      },
    });
    expect([res.status, res.body.status]).toEqual([202, "needs_input"]);
    const handoffUrl = res.body.input.handoffUrl as string;
    expect(handoffUrl).toMatch(
      new RegExp(`^${process.env.E2E_DASHBOARD_URL}/handoff/${res.body.jobId}\\.1\\.[A-Za-z0-9_-]{43}$`),
    );

    // The person: no API key, no account; the page names the organization and the site.
    const person = await (await browser.createBrowserContext()).newPage();
    expect((await person.goto(handoffUrl, { waitUntil: "domcontentloaded" }))!.status()).toBe(200);
    const text = await person.$eval("main", (m) => (m as HTMLElement).innerText);
    expect(text).toContain("Hosted hand-off org");
    expect(text).toContain(new URL(sitesUrl()).origin);
    const status = await person.waitForSelector("[role=status]");
    expect(await status!.evaluate((s) => s.textContent)).toMatch(/Waiting for you\. The site says: .*code/i);

    // The person clicks where the code field is in the live view.
    await clickInLiveView(person, `${sitesUrl()}/cases/otp-prompt/verify`, "input[name=otp]");
    await person.keyboard.type(totpCode(parseTotpSecret(totpSecret), Date.now()));
    const lastKey = Date.now();
    await person.keyboard.press("Enter");

    const done = await ended(res.body.jobId);
    expect(done.status).toBe("succeeded");
    process.stdout.write(`hand-off: ${Date.now() - lastKey} ms from the person's last key to the caller's session\n`);
    expect(await signsIn("otp-prompt", done.result.cookies)).toBe(true);

    // The status line says so, and the view is gone; the link is spent.
    await person.waitForFunction(() => document.querySelector("[role=status]")?.textContent?.startsWith("Signed in"));
    expect(await person.$eval("img", (img) => (img as HTMLImageElement).hidden)).toBe(true);
    expect((await fetch(handoffUrl)).status).toBe(410);
    expect((await fetch(handoffUrl.replace(/.{4}$/, "AAAA"))).status).toBe(404);
    await person.browserContext().close();
  });

  it("a person reads an image challenge only a person can read: types its characters in the live view, a wrong one first, and the job signs in", async () => {
    const user = await newSiteUser();
    const loginUrl = `${sitesUrl()}/cases/image-captcha/login`;
    const res = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain: loginUrl, login_method: "password", cred: user, useCache: false, allowHandoff: true },
    });
    expect([res.status, res.body.status, res.body.input.reason, res.body.input.fields]).toEqual([
      202,
      "needs_input",
      "captcha",
      [],
    ]);
    expect(res.body.input.prompt).toBe("Type the characters in the image");

    const questions = needsInputEvents(res.body.jobId);
    const person = await (await browser.createBrowserContext()).newPage();
    await person.goto(res.body.input.handoffUrl, { waitUntil: "domcontentloaded" });
    const shows = async () => (await (await fetch(`${sitesUrl()}/__fixture/image-captcha`)).json()).shows as string;
    // Misread first: the site shows its form again with new characters, the service fills it again and asks again.
    const first = await shows();
    await clickInLiveView(person, loginUrl, "input[name=captcha_code]");
    await person.keyboard.type(first === "AAAAA" ? "BBBBB" : "AAAAA");
    await person.keyboard.press("Enter");
    // Asked again: the job's second needs_input event (the site's new characters came before it).
    await waitFor("asked again", () => (questions.count() >= 2 ? true : null));
    const second = await shows();
    expect(second).not.toBe(first);
    await person.waitForFunction(() =>
      /Waiting for you\. The site says: Type the characters/.test(
        document.querySelector("[role=status]")?.textContent ?? "",
      ),
    );
    await clickInLiveView(person, loginUrl, "input[name=captcha_code]", true);
    await person.keyboard.type(second);
    const lastKey = Date.now();
    await person.keyboard.press("Enter");

    const done = await ended(res.body.jobId);
    expect([done.status, done.error]).toEqual(["succeeded", undefined]);
    process.stdout.write(
      `hand-off (image challenge): ${Date.now() - lastKey} ms from the person's last key to the caller's session\n`,
    );
    expect(await signsIn("image-captcha", done.result.cookies)).toBe(true);
    // Two forms went out, each with the person's answer; the site checked the password once, when the characters matched.
    const attempts = (await (
      await fetch(`${sitesUrl()}/__fixture/attempts/${encodeURIComponent(user.username)}`)
    ).json()) as Record<string, number>;
    expect(attempts["image-captcha"]).toBe(1);
    questions.close();
    await person.browserContext().close();
  });

  it("a signup whose form has an image challenge: the person types its characters in the live view, and the new account is signed in", async () => {
    const signupUrl = `${sitesUrl()}/cases/signup-captcha/signup`;
    const email = `new${Date.now().toString(36)}@example.test`;
    const res = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: {
        signup_method: "email",
        domain: signupUrl,
        cred: { email, password: "a-long-new-password" },
        allowHandoff: true,
      },
    });
    expect([res.status, res.body.status, res.body.input?.reason]).toEqual([202, "needs_input", "captcha"]);
    const person = await (await browser.createBrowserContext()).newPage();
    await person.goto(res.body.input.handoffUrl, { waitUntil: "domcontentloaded" });
    const word = (await (await fetch(`${sitesUrl()}/__fixture/image-captcha`)).json()).shows as string;
    await clickInLiveView(person, signupUrl, "input[name=captcha_code]");
    await person.keyboard.type(word);
    await person.keyboard.press("Enter");
    const done = await ended(res.body.jobId);
    expect([done.status, done.error]).toEqual(["succeeded", undefined]);
    expect(await signsIn("signup-captcha", done.result.cookies)).toBe(true);
    expect((await call("GET", `/v1/credentials/${done.result.credentialId}`, { key: tenant.key })).body).toMatchObject({
      username: email,
      status: "active",
    });
    await person.browserContext().close();
  });
});
