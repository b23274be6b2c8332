import { LoginFlowError } from "../flow-error";
import { signup, type SignupInput } from "./signup";
import { namesFor, usernameFrom, usernameVariant } from "./account-names";
import { FLOW_DEADLINE_MS, useBrowserAndSites } from "../testing/browser-and-sites";

const env = useBrowserAndSites();
const { guard } = env;
let seq = 0;
const fresh = (tag: string) => `${tag}${process.pid}x${++seq}x${Date.now().toString(36)}@example.test`;

const run = (path: string, input: Omit<SignupInput, "signupUrl">, steps: string[] = []) =>
  env.host.withPage((page) =>
    signup(
      page,
      { signupUrl: `${env.sites.url}${path}`, ...input },
      { guard, timeoutMs: FLOW_DEADLINE_MS, onStep: (s) => steps.push(s) },
    ),
  );

async function failureOf(promise: Promise<unknown>): Promise<LoginFlowError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LoginFlowError);
  return err as LoginFlowError;
}

const records = async (key: string) =>
  ((await (await fetch(`${env.sites.url}/__fixture/signups/${encodeURIComponent(key)}`)).json()) as { accounts: any[] })
    .accounts;
const signedIn = async (name: string, cookies: Array<{ name: string; value: string }>) => {
  const res = await fetch(`${env.sites.url}/cases/${name}/account`, {
    headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
    redirect: "manual",
  });
  return res.status === 200 ? await res.text() : null;
};

describe("signup engine against fixture sites", () => {
  it("fills a form a script draws late (email, username, password twice) and is signed in by the site", async () => {
    const email = fresh("instant");
    const result = await run("/cases/signup-instant/signup", { email });
    expect(result).toMatchObject({
      email,
      username: usernameFrom(email),
      passwordGenerated: true,
      signedInBy: "signup",
      identifier: email,
    });
    // Where it signs in next time: the signup page's "Log in" link.
    expect(result.loginUrl).toBe(`${env.sites.url}/cases/signup-instant/login`);
    expect(await signedIn("signup-instant", result.session.cookies)).toContain(`Welcome, ${email}`);
    expect(await records(email)).toEqual([
      expect.objectContaining({ site: "signup-instant", username: usernameFrom(email), confirmed: true }),
    ]);
    expect(result.password).toHaveLength(20);
  });

  it("fills a tracker's required Login field the request gave no value for with a name made to the site's rules, then signs in with it", async () => {
    const email = fresh("tracker");
    const result = await run("/cases/signup-tracker/account/register", { email });
    expect(result.username).toBe(usernameFrom(email));
    expect(await records(email)).toEqual([
      expect.objectContaining({ site: "signup-tracker", username: usernameFrom(email), confirmed: true }),
    ]);
    expect(result.signedInBy).toBe("login");
    expect(await signedIn("signup-tracker", result.session.cookies)).toMatch(/Welcome, /);
  });

  it("reads a hub's words of success above its signup form drawn again as the account made, and signs in on its login page", async () => {
    const username = `hub${process.pid}x${++seq}`;
    const steps: string[] = [];
    const result = await run("/cases/signup-hub/signup", { email: fresh("hub"), username }, steps);
    expect(steps).toContain("the site says the account was made; signing in");
    expect(result).toMatchObject({
      username,
      signedInBy: "login",
      loginUrl: `${env.sites.url}/cases/signup-hub/login`,
    });
    expect(await signedIn("signup-hub", result.session.cookies)).toContain(`Welcome, ${username}`);
    // One account, made once: the form drawn again was never sent a second time.
    expect(await records(username)).toHaveLength(1);
  });

  it("finds a hash-routed single-page app's sign-up page (#/signup), drawn after its route, and is signed in", async () => {
    const email = fresh("hash");
    const result = await run("/cases/signup-hash/#/signup", { email });
    expect(result.signedInBy).toBe("signup");
    expect(await records(email)).toEqual([expect.objectContaining({ site: "signup-hash", confirmed: true })]);
    expect(result.session.cookies.map((c) => c.name)).toContain("signup_hash_sid");
  });

  it("retries a taken username with a variant", async () => {
    // Ends in a letter: a name ending in four digits reads as an earlier variant, whose digits are replaced (a
    // base-36 clock ended so once in about 170 runs, and the variant then kept fewer than 16 characters).
    const taken = `taken${process.pid}${Date.now().toString(36)}u`;
    env.sites.accounts.addUser(taken, "whatever-1");
    const email = fresh("variant");
    const steps: string[] = [];
    const result = await run("/cases/signup-instant/signup", { email, username: taken }, steps);
    expect(result.username).not.toBe(taken);
    expect(result.username).toMatch(new RegExp(`^${taken.slice(0, 16)}\\d{4}$`));
    expect(steps.some((s) => s.startsWith("username taken"))).toBe(true);
    expect((await records(email))[0].username).toBe(result.username);
  });

  it("reports an email that already has an account as account_exists, with the site's words", async () => {
    const email = fresh("exists");
    env.sites.accounts.addUser(email, "already-there-1");
    const err = await failureOf(run("/cases/signup-instant/signup", { email }));
    expect([err.code, err.message]).toEqual(["account_exists", "An account with this email address already exists."]);
  });

  it("generates a password to the field's passwordrules, length limits and allowed symbols", async () => {
    const email = fresh("rules");
    const result = await run("/cases/signup-rules/signup", { email });
    expect(result.password).toMatch(/^[A-Za-z0-9!#$%]{12,16}$/);
    expect(result.password).toMatch(/[a-z]/);
    expect(result.password).toMatch(/[A-Z]/);
    expect(result.password).toMatch(/[0-9]/);
    expect(result.password).toMatch(/[!#$%]/);
    expect(await signedIn("signup-rules", result.session.cookies)).toContain(`Welcome, ${email}`);
  });

  it("generates a password to rules stated only in words beside the field, before the site refuses one", async () => {
    const email = fresh("hints");
    const steps: string[] = [];
    const result = await run("/cases/signup-hints/signup", { email }, steps);
    // The default is 20 characters: only the words beside the field ask for 24.
    expect(result.password.length).toBeGreaterThanOrEqual(24);
    expect(result.password.length).toBeLessThanOrEqual(32);
    expect(steps.filter((s) => s === "submit signup form")).toHaveLength(1);
    expect(await signedIn("signup-hints", result.session.cookies)).toContain(`Welcome, ${email}`);
  });

  it("refuses a caller's password the site does not take, with the site's words", async () => {
    const err = await failureOf(run("/cases/signup-rules/signup", { email: fresh("weak"), password: "short" }));
    expect(err.code).toBe("signup_rejected");
  });

  it("types an invitation token into the page's invitation field", async () => {
    const email = fresh("invited");
    const { token } = (await (
      await fetch(`${env.sites.url}/__fixture/invitations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      })
    ).json()) as { token: string };
    const result = await run("/cases/signup-invite/join", { email, inviteToken: token, name: "Grace Hopper" });
    expect(await signedIn("signup-invite", result.session.cookies)).toContain(`Welcome, ${email}`);
    expect(await records(email)).toEqual([expect.objectContaining({ name: "Grace Hopper", invitation: token })]);
  });

  it("opens an invitation link that shows the invited address, and keeps that address", async () => {
    const invited = fresh("bound");
    const { url } = (await (
      await fetch(`${env.sites.url}/__fixture/invitations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: invited }),
      })
    ).json()) as { url: string };
    const result = await env.host.withPage((page) =>
      signup(page, { signupUrl: url }, { guard, timeoutMs: FLOW_DEADLINE_MS }),
    );
    expect(result.email).toBe(invited);
    expect(await signedIn("signup-invite", result.session.cookies)).toContain(`Welcome, ${invited}`);
  });

  it("signs a username-only account up under its username, filling a field called just 'Name'", async () => {
    const email = fresh("forum");
    const result = await run("/cases/signup-username/signup", { email, name: "Ada Lovelace" });
    expect(result).toMatchObject({
      identifier: usernameFrom(email),
      username: usernameFrom(email),
      loginUrl: `${env.sites.url}/cases/signup-username/login`,
    });
    expect(await signedIn("signup-username", result.session.cookies)).toContain(`Welcome, ${usernameFrom(email)}`);
    expect(await records(usernameFrom(email))).toEqual([
      expect.objectContaining({ name: "Ada Lovelace", email: null }),
    ]);
  });

  it("says so when the page is a login form, not a signup form", async () => {
    const err = await failureOf(run("/classic/login", { email: fresh("nosignup") }));
    expect(err.code).toBe("form_not_found");
  });
});

describe("signup values", () => {
  it("derives usernames and names people would pick", () => {
    expect(usernameFrom("Ada.Lovelace+shop@example.com")).toBe("adalovelace");
    expect(usernameFrom("a@b.c")).toMatch(/^user\d{5}$/);
    expect(usernameVariant("adalovelace")).toMatch(/^adalovelace\d{4}$/);
    expect(usernameVariant("adalovelace1234")).toMatch(/^adalovelace\d{4}$/);
    expect(namesFor(undefined, "ada.lovelace@example.com")).toEqual({
      full: "Ada Lovelace",
      first: "Ada",
      last: "Lovelace",
    });
    expect(namesFor("Grace Brewster Hopper", undefined)).toEqual({
      full: "Grace Brewster Hopper",
      first: "Grace",
      last: "Brewster Hopper",
    });
    expect(namesFor(undefined, "agent-k3x9ab@mail.test")).toEqual({ full: "Agent Kxab", first: "Agent", last: "Kxab" });
  });
});
