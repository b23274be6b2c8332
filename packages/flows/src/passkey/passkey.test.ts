import type { VirtualPasskey } from "@authsvc/browser";
import { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { signInOnPage } from "../login/password-login";
import { PageWatch } from "../page/page-watch";
import { FLOW_DEADLINE_MS, useBrowserAndSites } from "../testing/browser-and-sites";
import { enrolPasskey } from "./enrol-passkey";
import { passkeyLogin } from "./passkey-login";

const env = useBrowserAndSites();
const options = () => ({ guard: env.guard, timeoutMs: FLOW_DEADLINE_MS });
// A relying party is a domain name, never an IP address: the site is visited as passkeys.localhost.
const site = (path: string) => `${env.sites.url.replace("127.0.0.1", "passkeys.localhost")}${path}`;
const LOGIN = "/cases/passkey-site/login";

// The authenticator gives a credential id in base64, the site in base64url.
const idOf = (passkey: VirtualPasskey) => Buffer.from(passkey.credentialId, "base64").toString("base64url");

let seq = 0;
const newUser = () => {
  const username = `pk-user-${++seq}`;
  env.sites.accounts.addUser(username, "pk-password");
  return username;
};
const fixture = async (username: string) =>
  (await (await fetch(`${env.sites.url}/__fixture/passkey-site/${username}`)).json()) as {
    passwordSubmissions: number;
    passkeySignIns: number;
    refusedAssertions: number;
    passkeys: Array<{ id: string; counter: number }>;
  };

/** Signs in with the password, then adds a passkey (found from the account page, or at `settingsUrl`). */
function enrol(username: string, settingsUrl?: string, loginPath = LOGIN): Promise<VirtualPasskey> {
  return env.host.withPage(async (page) => {
    const deadline = new Deadline(FLOW_DEADLINE_MS);
    const watch = await PageWatch.attach(page, env.guard, site(loginPath));
    await watch.open(site(loginPath), deadline, "login page");
    await signInOnPage(
      page,
      watch,
      { loginUrl: site(loginPath), identifier: username, password: "pk-password" },
      options(),
      deadline,
    );
    return enrolPasskey(page, watch, { settingsUrl }, deadline);
  });
}

async function failureOf(promise: Promise<unknown>): Promise<LoginFlowError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LoginFlowError);
  return err as LoginFlowError;
}

describe("passkeys", () => {
  it("adds a passkey on the settings page the account page links to, then signs in with it and no password", async () => {
    const username = newUser();
    const passkey = await enrol(username);
    expect(passkey).toMatchObject({ rpId: "passkeys.localhost", isResidentCredential: true });
    expect(passkey.privateKey.length).toBeGreaterThan(0);
    const kept = await fixture(username);
    expect(kept.passkeys.map((p) => p.id)).toEqual([idOf(passkey)]);
    expect(kept.passwordSubmissions).toBe(1);

    // A fresh browser: "Sign in with a passkey", no password typed or sent.
    const result = await env.host.withPage((page) =>
      passkeyLogin(page, { loginUrl: site(LOGIN), identifier: username, passkeys: [passkey] }, options()),
    );
    expect(result.session.cookies.find((c) => c.name === "passkey_site_sid")).toBeDefined();
    expect(result.used.credentialId).toBe(passkey.credentialId);
    expect(result.used.signCount).toBeGreaterThan(passkey.signCount);
    const after = await fixture(username);
    expect(after).toMatchObject({ passwordSubmissions: 1, passkeySignIns: 1 });
    // The site keeps the counter the authenticator gave; the next sign-in starts from the stored one.
    expect(after.passkeys[0]!.counter).toBe(result.used.signCount);

    // Username first: the next page asks for that account's passkey by itself.
    const again = await env.host.withPage((page) =>
      passkeyLogin(
        page,
        { loginUrl: site(`${LOGIN}?flow=username-first`), identifier: username, passkeys: [result.used] },
        options(),
      ),
    );
    expect(again.used.signCount).toBeGreaterThan(result.used.signCount);
    expect(await fixture(username)).toMatchObject({ passwordSubmissions: 1, passkeySignIns: 2 });
  });

  it("adds one at the settings page the caller names", async () => {
    const username = newUser();
    const passkey = await enrol(username, site("/cases/passkey-site/settings/security"));
    expect((await fixture(username)).passkeys.map((p) => p.id)).toEqual([idOf(passkey)]);
  });

  it("answers passkey_not_offered where the site has no way to add one or to sign in with one, sending nothing", async () => {
    const username = newUser();
    // The classic form's site: its account page links to no settings.
    const none = await failureOf(enrol(username, undefined, "/classic/login"));
    expect(none.code).toBe("passkey_not_offered");

    const passkey = await enrol(username);
    const passwordOnly = await failureOf(
      env.host.withPage((page) =>
        passkeyLogin(page, { loginUrl: site("/classic/login"), identifier: username, passkeys: [passkey] }, options()),
      ),
    );
    expect(passwordOnly.code).toBe("passkey_not_offered");
    expect(passwordOnly.message).toMatch(/asks for the password/);

    // A passkey of another relying party is not this site's: nothing is loaded, nothing asked.
    const elsewhere = await failureOf(
      env.host.withPage((page) =>
        passkeyLogin(
          page,
          { loginUrl: site(LOGIN), identifier: username, passkeys: [{ ...passkey, rpId: "other.localhost" }] },
          options(),
        ),
      ),
    );
    expect(elsewhere.code).toBe("passkey_not_offered");
    expect(await fixture(username)).toMatchObject({ passkeySignIns: 0, refusedAssertions: 0 });
  });

  it("answers passkey_rejected when the site no longer knows the passkey", async () => {
    const username = newUser();
    const passkey = await enrol(username);
    await fetch(`${env.sites.url}/__fixture/passkey-site/${username}/forget-passkeys`, { method: "POST" });
    const err = await failureOf(
      env.host.withPage((page) =>
        passkeyLogin(page, { loginUrl: site(LOGIN), identifier: username, passkeys: [passkey] }, options()),
      ),
    );
    expect(err.code).toBe("passkey_rejected");
    expect(err.message).toContain("We couldn't verify your passkey.");
    expect(await fixture(username)).toMatchObject({ passkeySignIns: 0, passwordSubmissions: 1 });
  });

  it("signs in on a login page whose username field takes the passkey by autofill as it loads, judged against the state before the page ran", async () => {
    // `?autofill=1`: the page starts a conditional request on load; the authenticator answers it at once,
    // and the page signs in by itself before the flow first looks at it.
    const username = newUser();
    const passkey = await enrol(username);
    const result = await env.host.withPage((page) =>
      passkeyLogin(
        page,
        { loginUrl: site(`${LOGIN}?autofill=1`), identifier: username, passkeys: [passkey] },
        options(),
      ),
    );
    expect(result.session.cookies.find((c) => c.name === "passkey_site_sid")).toBeDefined();
    expect(result.used.signCount).toBeGreaterThan(passkey.signCount);
    expect(await fixture(username)).toMatchObject({ passkeySignIns: 1, passwordSubmissions: 1 });

    // The same page once the site forgot the passkey: its refusal, shown as the page loaded, is the verdict.
    await fetch(`${env.sites.url}/__fixture/passkey-site/${username}/forget-passkeys`, { method: "POST" });
    const err = await failureOf(
      env.host.withPage((page) =>
        passkeyLogin(
          page,
          { loginUrl: site(`${LOGIN}?autofill=1`), identifier: username, passkeys: [result.used] },
          options(),
        ),
      ),
    );
    expect(err.code).toBe("passkey_rejected");
    expect(err.message).toContain("We couldn't verify your passkey.");
  });
});
