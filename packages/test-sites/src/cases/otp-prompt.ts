import { randomBytes } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { base, errorAlert, formCase, plainForm, sessionCookie, startSession } from "./kit";
import { at, defineCase, mfaRequired, standard } from "./login-case";

// What the site answers a wrong code with.
const TOTP_REFUSED = "That code didn't work. Check your authenticator app.";
const TOTP_REFUSED_PLAIN = "That code didn't work. Check the code and try again.";

/**
 * After the right password, the site asks for the code of an authenticator app and checks it against
 * the user's TOTP secret. `codeFields` draws the prompt: one field, or one box per digit; `refusal` the
 * site's words for a wrong code (an alert by default).
 */
function totpCase(
  accounts: Accounts,
  name: string,
  codeFields: string,
  refusal: { words: string; markup: (e: string) => string } = { words: TOTP_REFUSED, markup: errorAlert },
): Router {
  const pending = new Map<string, string>();
  const r = Router();
  const prompt = (error?: string) =>
    page(
      "Two-step verification",
      `<h1>Two-step verification</h1><p>Enter the 6-digit code from your authenticator app.</p>${error ? refusal.markup(error) : ""}
<form method="post" action="${base(name)}/verify">${codeFields}<button type="submit">Verify</button> <button type="button">Use another method</button></form>`,
      // Focus moves to the next box as each digit is typed, as such prompts do.
      `for (const box of document.querySelectorAll("input[maxlength='1']")) box.addEventListener("input", () => box.nextElementSibling?.focus());`,
    );
  r.get(`${base(name)}/verify`, (_req, res) => {
    res.type("html").send(prompt());
  });
  r.post(`${base(name)}/verify`, urlencoded({ extended: false }), (req, res) => {
    const ticket = readCookie(req.headers.cookie, "mfa_pending") ?? "";
    const username = pending.get(ticket);
    if (!username) return res.redirect(302, `${base(name)}/login`);
    const body = (req.body ?? {}) as Record<string, string>;
    const code = body.otp ?? [1, 2, 3, 4, 5, 6].map((i) => body[`d${i}`] ?? "").join("");
    if (!accounts.checkTotp(username, code)) return res.type("html").send(prompt(refusal.words));
    pending.delete(ticket);
    startSession(res, accounts, name, username);
    res.clearCookie("mfa_pending", { path: "/" }).redirect(302, `${base(name)}/account`);
  });
  r.use(
    formCase(accounts, name, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(name, error)}`), {
      onSuccess: (_req, res, username) => {
        const ticket = randomBytes(16).toString("hex");
        pending.set(ticket, username);
        res.cookie("mfa_pending", ticket, { httpOnly: true, path: "/" }).redirect(302, `${base(name)}/verify`);
      },
    }),
  );
  return r;
}

const otpPrompt = (accounts: Accounts) =>
  totpCase(
    accounts,
    "otp-prompt",
    `<label>Code <input name="otp" inputmode="numeric" autocomplete="one-time-code" maxlength="6"></label>`,
  );
const totpSplit = (accounts: Accounts) =>
  totpCase(
    accounts,
    "totp-split",
    `<div class="boxes">${[1, 2, 3, 4, 5, 6].map((i) => `<input name="d${i}" inputmode="numeric" maxlength="1" aria-label="Digit ${i}" style="width:2rem">`).join("")}</div>`,
  );
/** The same prompt refusing a wrong code in a plain div, no alert markup, as many sites do. */
const totpPlainRefusal = (accounts: Accounts) =>
  totpCase(
    accounts,
    "totp-plain-refusal",
    `<label>Verification code <input name="otp" inputmode="numeric" maxlength="6"></label><p>Lost your device? Use a recovery code instead.</p>`,
    {
      words: TOTP_REFUSED_PLAIN,
      markup: (e) => `<div class="form-error">${escapeHtml(e)}</div>`,
    },
  );

export const otpPromptCase = defineCase({
  router: ({ accounts }) => otpPrompt(accounts),
  cases: [mfaRequired("otp-prompt")],
});

/** Authenticator codes the caller can give: the otp-prompt page again (its router is otpPromptCase's), and two more. */
export const totpCases = defineCase({
  router: ({ accounts }) => [totpSplit(accounts), totpPlainRefusal(accounts)],
  cases: [
    standard("otp-prompt-totp", {
      site: "otp-prompt",
      url: at("/cases/otp-prompt/login"),
      totp: true,
      wrongCode: TOTP_REFUSED,
      session: { cookie: sessionCookie("otp-prompt"), cookieDomain: "127.0.0.1" },
      account: "/cases/otp-prompt/account",
    }),
    standard("totp-split", { totp: true, wrongCode: TOTP_REFUSED }),
    standard("totp-plain-refusal", { totp: true, wrongCode: TOTP_REFUSED_PLAIN }),
  ],
});
