import { json, type Request, Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { passkeyCeremonies } from "../passkey-ceremonies";
import { base, MESSAGES, sessionCookie, startSession } from "./kit";
import { defineCase } from "./login-case";

const NAME = "passkey-site";

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
 * methods do): they do not sign in. `POST /__fixture/passkey-site/:username/passkeys` `{credentialId, publicKey}`
 * (base64url; the key SPKI DER, ES256 or EdDSA) is a passkey the account registered on another device: the site knows
 * it as its own registration would have left it, and a test holds its private key (a passkey import).
 *
 * `/signup` (email, password) signs the new account in at once and offers "Create a passkey" on the next
 * page ("Not now" goes on to the account), as sites that move new users to passkeys do.
 */
function passkeySite(accounts: Accounts): Router {
  const signedIn = (req: Request) => accounts.sessionUser(readCookie(req.headers.cookie, sessionCookie(NAME)));
  const {
    router,
    members,
    member,
    addScript: ADD_SCRIPT,
    signInScript,
    counts,
    registeredElsewhere,
  } = passkeyCeremonies({
    base: base(NAME),
    name: "Passkey Site",
    signedIn,
    startSession: (res, username) => startSession(res, accounts, NAME, username),
    signedInPage: `${base(NAME)}/account`,
  });
  const r = Router();
  r.use(router);
  r.get("/__fixture/passkey-site/:username", (req, res) => {
    res.json(counts(req.params.username));
  });
  r.post("/__fixture/passkey-site/:username/forget-passkeys", (req, res) => {
    member(req.params.username).passkeys = [];
    res.status(204).end();
  });
  r.post("/__fixture/passkey-site/:username/passkeys", json(), (req, res) => {
    const { credentialId, publicKey } = (req.body ?? {}) as { credentialId?: unknown; publicKey?: unknown };
    if (typeof credentialId !== "string" || typeof publicKey !== "string")
      return res.status(400).json({ error: "credentialId and publicKey (base64url) are required" });
    try {
      registeredElsewhere(req.params.username, credentialId, Buffer.from(publicKey, "base64url"));
    } catch (err) {
      return res.status(400).json({ error: String(err) });
    }
    res.status(201).end();
  });
  r.post("/__fixture/passkey-site/:username/hold-new-passkeys", (req, res) => {
    member(req.params.username).holdsNew = true;
    res.status(204).end();
  });

  r.get(`${base(NAME)}/login`, (req, res) => {
    if (req.query.flow === "username-first") {
      res
        .type("html")
        .send(
          page(
            "Sign in",
            `<h1>Sign in</h1><form method="post" action="${base(NAME)}/identify"><label>Username <input type="text" name="username" autocomplete="username"></label><button type="submit">Continue</button></form>`,
          ),
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
    if (!accounts.attempt(NAME, username, String(req.body?.password ?? "")))
      return res.redirect(302, `${base(NAME)}/login?error=1`);
    startSession(res, accounts, NAME, username);
    res.redirect(302, `${base(NAME)}/account`);
  });

  r.get(`${base(NAME)}/account`, (req, res) => {
    const user = signedIn(req);
    if (!user) return res.redirect(302, `${base(NAME)}/login`);
    res
      .type("html")
      .send(
        page(
          "Account",
          `<nav><a href="${base(NAME)}/settings/security">Security settings</a> <a href="${base(NAME)}/logout">Sign out</a></nav><h1>Welcome, ${escapeHtml(user)}</h1>`,
        ),
      );
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
    const email = String(req.body?.email ?? "")
      .trim()
      .toLowerCase();
    const password = String(req.body?.password ?? "");
    if (!/^[^@\s]+@[^@\s]+$/.test(email) || password.length < 8)
      return res.redirect(
        302,
        `${base(NAME)}/signup?error=${encodeURIComponent("Enter an email address and a password of 8 characters or more.")}`,
      );
    if (members.has(email))
      return res.redirect(
        302,
        `${base(NAME)}/signup?error=${encodeURIComponent("An account with this email already exists.")}`,
      );
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
    const listed = member(user)
      .passkeys.map((p) => `<li>Passkey added ${escapeHtml(p.createdAt)}</li>`)
      .join("");
    res.type("html").send(
      page(
        "Security",
        `<nav><a href="${base(NAME)}/account">Account</a> <a href="${base(NAME)}/logout">Sign out</a></nav><h1>Security</h1>
<h2>Passkeys</h2><ul id="passkeys">${listed}</ul><button type="button" id="add" onclick="addPasskey()">Add a passkey</button><p id="status" role="status"></p>`,
        ADD_SCRIPT,
      ),
    );
  });
  r.get(`${base(NAME)}/logout`, (req, res) => {
    accounts.endSession(readCookie(req.headers.cookie, sessionCookie(NAME)));
    res.clearCookie(sessionCookie(NAME), { path: "/" }).redirect(302, `${base(NAME)}/login`);
  });
  return r;
}

export const passkeySiteCase = defineCase({ router: ({ accounts }) => passkeySite(accounts) });
