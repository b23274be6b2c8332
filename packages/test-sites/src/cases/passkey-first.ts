import { randomBytes } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import { base, sessionCookie } from "./kit";
import { passwordStep } from "./identifier-first";
import { defineCase, onHost, standard } from "./login-case";

const NAME = "passkey-first";

/**
 * A site that moved its users to passkeys, as the large identity providers do: the first step takes the
 * username (its field also offers passkeys in the browser's autofill: a conditional request, pending while
 * the page is open); the next page asks the browser for the account's passkey at once, and only when the
 * browser answers "none" shows "Try another way", whose list leads to the password page. A browser that
 * never answers (headless Chromium's passkey dialog, which nobody can dismiss) leaves that page waiting
 * until the request's five minutes run out. The fixture counts the passkey pages it served and the
 * passkey requests the browser refused (`GET /__fixture/passkey-first/:username`).
 *
 * Served as passkeys.localhost (LOGIN_CASES): a relying party must be a domain name, never an IP address.
 *
 * For the bench's comparison, on the login page: `?prompt=0`, the same pages without the passkey request
 * (the passkey page offers "Try another way" at once); `?passkeyPage=0`, no passkey page at all (the
 * username step goes straight to the password).
 */
function passkeyFirst(accounts: Accounts): Router {
  const seen = new Map<string, { prompts: number; refused: number }>();
  const r = Router();
  r.get("/__fixture/passkey-first/:username", (req, res) => {
    res.json(seen.get(req.params.username) ?? { prompts: 0, refused: 0 });
  });
  const count = (username: string) => {
    let entry = seen.get(username);
    if (!entry) seen.set(username, (entry = { prompts: 0, refused: 0 }));
    return entry;
  };
  const passwordPage = passwordStep(r, accounts, NAME);
  r.get(`${base(NAME)}/login`, (req, res) => {
    const next = req.query.passkeyPage === "0" ? "password" : req.query.prompt === "0" ? "passkey?prompt=0" : "passkey";
    res.type("html").send(
      page(
        "Sign in",
        `<h1>Sign in</h1><form method="post" action="${base(NAME)}/${next}">
  <label>Email or username <input type="text" name="username" autocomplete="username webauthn"></label>
  <button type="submit">Next</button>
</form>`,
        // The conditional (autofill) request real sites start on their username field.
        `if (window.PublicKeyCredential && PublicKeyCredential.isConditionalMediationAvailable) {
  PublicKeyCredential.isConditionalMediationAvailable().then((ok) => ok && navigator.credentials.get({ mediation: "conditional",
    publicKey: { challenge: crypto.getRandomValues(new Uint8Array(32)), rpId: location.hostname, userVerification: "preferred" } }).catch(() => {}));
}`,
      ),
    );
  });
  r.post(`${base(NAME)}/password`, urlencoded({ extended: false }), (req, res) => {
    res.type("html").send(passwordPage(String(req.body?.username ?? "")));
  });
  r.post(`${base(NAME)}/passkey`, urlencoded({ extended: false }), (req, res) => {
    const username = String(req.body?.username ?? "");
    const prompt = req.query.prompt !== "0";
    if (prompt) count(username).prompts++;
    const credentialId = randomBytes(16).toString("base64url");
    res.type("html").send(
      page(
        "Use your passkey",
        `<h1>Use your passkey to sign in</h1><p>${escapeHtml(username)}</p>
<p id="status" role="status">Follow the steps in your browser.</p>
<div id="other" hidden>
  <button type="button" id="another">Try another way</button>
  <ul id="methods" hidden>
    <li><form method="post" action="${base(NAME)}/password"><input type="hidden" name="username" value="${escapeHtml(username)}"><button type="submit">Enter your password</button></form></li>
    <li><button type="button" disabled>Get a code on your phone</button></li>
  </ul>
</div>`,
        `const b64 = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
document.getElementById("another").addEventListener("click", () => { document.getElementById("methods").hidden = false; });
(${prompt} ? navigator.credentials.get({ publicKey: { challenge: crypto.getRandomValues(new Uint8Array(32)), rpId: location.hostname, timeout: 300000,
  userVerification: "required", allowCredentials: [{ type: "public-key", id: b64(${JSON.stringify(credentialId)}) }] } })
  .then(() => { document.getElementById("status").textContent = "This passkey is not registered here."; })
  .catch(() => fetch("${base(NAME)}/passkey-refused", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "username=" + encodeURIComponent(${JSON.stringify(username)}) }))
 : Promise.resolve())
  .finally(() => { document.getElementById("status").textContent = "We couldn't sign you in with a passkey."; document.getElementById("other").hidden = false; });`,
      ),
    );
  });
  r.post(`${base(NAME)}/passkey-refused`, urlencoded({ extended: false }), (req, res) => {
    count(String(req.body?.username ?? "")).refused++;
    res.status(204).end();
  });
  return r;
}

// Under a name: WebAuthn refuses an IP address as a relying party, so on 127.0.0.1 the browser would turn the
// passkey request down as invalid, whatever its authenticator holds.
export const passkeyFirstCase = defineCase({
  router: ({ accounts }) => passkeyFirst(accounts),
  cases: [
    standard(NAME, {
      url: onHost("passkeys.localhost", `${base(NAME)}/login`),
      session: { cookie: sessionCookie(NAME), cookieDomain: "passkeys.localhost" },
    }),
  ],
});
