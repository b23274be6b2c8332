import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse, type WebAuthnCredential } from "@simplewebauthn/server";
import { type Request, Router, json, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { base, MESSAGES, sessionCookie, startSession } from "./kit";

const NAME = "passkey-site";

interface Enrolled extends WebAuthnCredential {
  createdAt: string;
}

interface Member {
  userId: string;
  passkeys: Enrolled[];
  passwordSubmissions: number;
  passkeySignIns: number;
  refusedAssertions: number;
  /** New passkeys are held until the owner confirms them by mail (never, here): the site says "added" all the same. */
  holdsNew: boolean;
}

/**
 * A site whose users add passkeys, built on @simplewebauthn/server as real sites are: a password form
 * beside "Sign in with a passkey" (a discoverable request: the browser offers whichever passkey of the
 * site it holds); `?flow=username-first` asks the username first, then that account's passkeys
 * (allowCredentials), with the password behind "Use your password instead"; `?autofill=1` has the username
 * field offer passkeys by autofill (a conditional request started as the page loads, as many large sites
 * do): a browser holding the account's passkey signs in by itself. Signed in, the account page
 * links to "Security settings", where "Add a passkey" registers one (resident key, user verification
 * required). A passkey sign-in the site cannot verify (one it no longer knows, a counter gone backwards)
 * shows "We couldn't verify your passkey."
 *
 * The relying party is the host name the page is visited under: served as passkeys.localhost (an IP
 * address cannot be one). `GET /__fixture/passkey-site/:username`: the password submissions, passkey
 * sign-ins and refused assertions of the account, and the passkeys the site keeps (id, counter);
 * `POST /__fixture/passkey-site/:username/forget-passkeys` removes them on the site's side;
 * `POST /__fixture/passkey-site/:username/hold-new-passkeys` makes the site answer "Passkey added." to the
 * next ones while it keeps them aside until the owner confirms them by mail (as sites that guard new sign-in
 * methods do): they do not sign in.
 *
 * `/signup` (email, password) signs the new account in at once and offers "Create a passkey" on the next
 * page ("Not now" goes on to the account), as sites that move new users to passkeys do.
 */
export function passkeySite(accounts: Accounts): Router {
  const members = new Map<string, Member>();
  const member = (username: string) => {
    let m = members.get(username);
    if (!m) members.set(username, (m = { userId: Buffer.from(username).toString("base64url"), passkeys: [], passwordSubmissions: 0, passkeySignIns: 0, refusedAssertions: 0, holdsNew: false }));
    return m;
  };
  // The challenge each browser was given, by a cookie of its own (a real site keeps it in its session).
  const challenges = new Map<string, { challenge: string; username?: string }>();
  const rp = (req: Request) => ({ rpID: req.hostname, origin: `${req.protocol}://${req.headers.host}` });
  const signedIn = (req: Request) => accounts.sessionUser(readCookie(req.headers.cookie, sessionCookie(NAME)));
  const challengeKey = (req: Request) => readCookie(req.headers.cookie, "pk_ceremony");
  const newCeremony = (res: import("express").Response, entry: { challenge: string; username?: string }) => {
    const key = Math.random().toString(36).slice(2);
    challenges.set(key, entry);
    res.cookie("pk_ceremony", key, { httpOnly: true, sameSite: "lax", path: "/" });
  };
  const r = Router();
  // "Add a passkey": options from the site, the browser makes the passkey, the site checks and keeps it.
  const ADD_SCRIPT = `async function addPasskey() {
  const status = document.getElementById("status");
  try {
    const options = await (await fetch("${base(NAME)}/passkeys/register-options", { method: "POST" })).json();
    const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
    const answer = await fetch("${base(NAME)}/passkeys/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(credential.toJSON()) });
    status.textContent = answer.ok ? "Passkey added." : "We couldn't add this passkey.";
    if (answer.ok) document.getElementById("passkeys")?.insertAdjacentHTML("beforeend", "<li>Passkey added just now</li>");
  } catch (e) {
    status.textContent = "No passkey was created.";
  }
}`;

  r.get("/__fixture/passkey-site/:username", (req, res) => {
    const m = members.get(req.params.username);
    res.json({
      passwordSubmissions: m?.passwordSubmissions ?? 0,
      passkeySignIns: m?.passkeySignIns ?? 0,
      refusedAssertions: m?.refusedAssertions ?? 0,
      passkeys: (m?.passkeys ?? []).map((p) => ({ id: p.id, counter: p.counter, createdAt: p.createdAt })),
    });
  });
  r.post("/__fixture/passkey-site/:username/forget-passkeys", (req, res) => {
    member(req.params.username).passkeys = [];
    res.status(204).end();
  });
  r.post("/__fixture/passkey-site/:username/hold-new-passkeys", (req, res) => {
    member(req.params.username).holdsNew = true;
    res.status(204).end();
  });

  // The passkey ceremony's script, shared by the login pages: options from the site, the browser's answer back.
  const signInScript = (username?: string, mediation?: "conditional") => `
async function passkeySignIn() {
  const status = document.getElementById("status");
  try {
    const options = await (await fetch("${base(NAME)}/passkeys/sign-in-options", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: ${JSON.stringify(username ?? null)} }) })).json();
    const credential = await navigator.credentials.get({ ${mediation ? `mediation: "${mediation}", ` : ""}publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
    const answer = await fetch("${base(NAME)}/passkeys/sign-in", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(credential.toJSON()) });
    if (answer.ok) { location.href = "${base(NAME)}/account"; return; }
    const error = document.getElementById("error");
    error.textContent = "We couldn't verify your passkey.";
    error.hidden = false;
  } catch (e) {
    status.textContent = "No passkey was used. You can sign in with your password.";
  }
}`;

  r.get(`${base(NAME)}/login`, (req, res) => {
    if (req.query.flow === "username-first") {
      res.type("html").send(
        page("Sign in", `<h1>Sign in</h1><form method="post" action="${base(NAME)}/identify"><label>Username <input type="text" name="username" autocomplete="username"></label><button type="submit">Continue</button></form>`),
      );
      return;
    }
    const autofill = req.query.autofill === "1";
    res.type("html").send(
      page(
        "Sign in",
        `<h1>Sign in</h1>${req.query.error ? `<p class="error" role="alert">${MESSAGES.wrong}</p>` : ""}
<form method="post" action="${base(NAME)}/login">
  <label>Username <input type="text" name="username" autocomplete="username${autofill ? " webauthn" : ""}"></label>
  <label>Password <input type="password" name="password" autocomplete="current-password"></label>
  <button type="submit">Sign in</button>
</form>
<p>or</p><button type="button" id="passkey" onclick="passkeySignIn()">Sign in with a passkey</button>
<p id="status" role="status"></p><p id="error" class="error" role="alert" hidden></p>`,
        autofill ? `${signInScript(undefined, "conditional")}\npasskeySignIn();` : signInScript(),
      ),
    );
  });
  // Username first: the account's own passkeys are asked for at once; the password is the other way.
  r.post(`${base(NAME)}/identify`, urlencoded({ extended: false }), (req, res) => {
    const username = String(req.body?.username ?? "");
    res.type("html").send(
      page(
        "Use your passkey",
        `<h1>Sign in as ${escapeHtml(username)}</h1><p id="status" role="status">Follow the steps in your browser.</p><p id="error" class="error" role="alert" hidden></p>
<button type="button" onclick="passkeySignIn()">Use a passkey</button>
<form method="post" action="${base(NAME)}/password-step"><input type="hidden" name="username" value="${escapeHtml(username)}"><button type="submit">Use your password instead</button></form>`,
        `${signInScript(username)}\npasskeySignIn();`,
      ),
    );
  });
  r.post(`${base(NAME)}/password-step`, urlencoded({ extended: false }), (req, res) => {
    const username = String(req.body?.username ?? "");
    res.type("html").send(
      page(
        "Enter your password",
        `<h1>Enter your password</h1><form method="post" action="${base(NAME)}/login"><input type="hidden" name="username" value="${escapeHtml(username)}">
<label>Password <input type="password" name="password" autocomplete="current-password"></label><button type="submit">Sign in</button></form>`,
      ),
    );
  });
  r.post(`${base(NAME)}/login`, urlencoded({ extended: false }), (req, res) => {
    const username = String(req.body?.username ?? "");
    member(username).passwordSubmissions++;
    if (!accounts.attempt(NAME, username, String(req.body?.password ?? ""))) return res.redirect(302, `${base(NAME)}/login?error=1`);
    startSession(res, accounts, NAME, username);
    res.redirect(302, `${base(NAME)}/account`);
  });

  r.post(`${base(NAME)}/passkeys/sign-in-options`, json(), async (req, res) => {
    const username = typeof req.body?.username === "string" ? req.body.username : undefined;
    const allow = username ? (members.get(username)?.passkeys ?? []).map((p) => ({ id: p.id, transports: p.transports })) : undefined;
    const options = await generateAuthenticationOptions({ rpID: rp(req).rpID, allowCredentials: allow, userVerification: "required" });
    newCeremony(res, { challenge: options.challenge, username });
    res.json(options);
  });
  r.post(`${base(NAME)}/passkeys/sign-in`, json(), async (req, res) => {
    const ceremony = challenges.get(challengeKey(req) ?? "");
    challenges.delete(challengeKey(req) ?? "");
    const id = String(req.body?.id ?? "");
    const owner = [...members.entries()].find(([, m]) => m.passkeys.some((p) => p.id === id));
    if (!ceremony || !owner) return res.status(400).json({ error: "unknown passkey" });
    const [username, m] = owner;
    const known = m.passkeys.find((p) => p.id === id)!;
    try {
      const { verified, authenticationInfo } = await verifyAuthenticationResponse({
        response: req.body,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: rp(req).origin,
        expectedRPID: rp(req).rpID,
        credential: known,
        requireUserVerification: true,
      });
      if (!verified) throw new Error("not verified");
      known.counter = authenticationInfo.newCounter;
    } catch {
      m.refusedAssertions++;
      return res.status(400).json({ error: "assertion refused" });
    }
    m.passkeySignIns++;
    startSession(res, accounts, NAME, username);
    res.status(204).end();
  });

  r.get(`${base(NAME)}/account`, (req, res) => {
    const user = signedIn(req);
    if (!user) return res.redirect(302, `${base(NAME)}/login`);
    res.type("html").send(page("Account", `<nav><a href="${base(NAME)}/settings/security">Security settings</a> <a href="${base(NAME)}/logout">Sign out</a></nav><h1>Welcome, ${escapeHtml(user)}</h1>`));
  });
  // Signing up: the new account is signed in at once, and the next page offers a passkey before anything else.
  r.get(`${base(NAME)}/signup`, (req, res) => {
    res.type("html").send(
      page(
        "Create your account",
        `<h1>Create your account</h1>${req.query.error ? `<p class="error" role="alert">${escapeHtml(String(req.query.error))}</p>` : ""}
<form method="post" action="${base(NAME)}/signup">
  <label>Email <input type="email" name="email" autocomplete="email"></label>
  <label>Password <input type="password" name="password" autocomplete="new-password"></label>
  <button type="submit">Create account</button>
</form><p>Already have an account? <a href="${base(NAME)}/login">Sign in</a></p>`,
      ),
    );
  });
  r.post(`${base(NAME)}/signup`, urlencoded({ extended: false }), (req, res) => {
    const email = String(req.body?.email ?? "").trim().toLowerCase();
    const password = String(req.body?.password ?? "");
    if (!/^[^@\s]+@[^@\s]+$/.test(email) || password.length < 8) return res.redirect(302, `${base(NAME)}/signup?error=${encodeURIComponent("Enter an email address and a password of 8 characters or more.")}`);
    if (members.has(email)) return res.redirect(302, `${base(NAME)}/signup?error=${encodeURIComponent("An account with this email already exists.")}`);
    accounts.addUser(email, password);
    member(email);
    startSession(res, accounts, NAME, email);
    res.redirect(302, `${base(NAME)}/welcome`);
  });
  r.get(`${base(NAME)}/welcome`, (req, res) => {
    const user = signedIn(req);
    if (!user) return res.redirect(302, `${base(NAME)}/login`);
    res.type("html").send(
      page(
        "Welcome",
        `<nav><a href="${base(NAME)}/logout">Sign out</a></nav><h1>Welcome, ${escapeHtml(user)}</h1>
<h2>Sign in faster next time</h2><p>Use your fingerprint, face or screen lock instead of your password.</p>
<button type="button" onclick="addPasskey()">Create a passkey</button> <a href="${base(NAME)}/account">Not now</a><p id="status" role="status"></p>`,
        ADD_SCRIPT,
      ),
    );
  });

  r.get(`${base(NAME)}/settings/security`, (req, res) => {
    const user = signedIn(req);
    if (!user) return res.redirect(302, `${base(NAME)}/login`);
    const listed = member(user).passkeys.map((p) => `<li>Passkey added ${escapeHtml(p.createdAt)}</li>`).join("");
    res.type("html").send(
      page(
        "Security",
        `<nav><a href="${base(NAME)}/account">Account</a> <a href="${base(NAME)}/logout">Sign out</a></nav><h1>Security</h1>
<h2>Passkeys</h2><ul id="passkeys">${listed}</ul><button type="button" id="add" onclick="addPasskey()">Add a passkey</button><p id="status" role="status"></p>`,
        ADD_SCRIPT,
      ),
    );
  });
  r.post(`${base(NAME)}/passkeys/register-options`, async (req, res) => {
    const user = signedIn(req);
    if (!user) return res.status(401).json({ error: "sign in first" });
    const m = member(user);
    const options = await generateRegistrationOptions({
      rpName: "Passkey Site",
      rpID: rp(req).rpID,
      userName: user,
      userID: Buffer.from(m.userId),
      attestationType: "none",
      excludeCredentials: m.passkeys.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    });
    newCeremony(res, { challenge: options.challenge, username: user });
    res.json(options);
  });
  r.post(`${base(NAME)}/passkeys/register`, json(), async (req, res) => {
    const user = signedIn(req);
    const ceremony = challenges.get(challengeKey(req) ?? "");
    challenges.delete(challengeKey(req) ?? "");
    if (!user || !ceremony || ceremony.username !== user) return res.status(400).json({ error: "no registration under way" });
    try {
      const { verified, registrationInfo } = await verifyRegistrationResponse({ response: req.body, expectedChallenge: ceremony.challenge, expectedOrigin: rp(req).origin, expectedRPID: rp(req).rpID, requireUserVerification: true });
      if (!verified || !registrationInfo) throw new Error("not verified");
      if (!member(user).holdsNew) member(user).passkeys.push({ ...registrationInfo.credential, createdAt: new Date().toISOString() });
    } catch {
      return res.status(400).json({ error: "registration refused" });
    }
    res.status(201).json({ ok: true });
  });
  r.get(`${base(NAME)}/logout`, (req, res) => {
    accounts.endSession(readCookie(req.headers.cookie, sessionCookie(NAME)));
    res.clearCookie(sessionCookie(NAME), { path: "/" }).redirect(302, `${base(NAME)}/login`);
  });
  return r;
}
