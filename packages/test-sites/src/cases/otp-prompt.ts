import { randomBytes } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, page, readCookie } from "../accounts";
import { base, errorAlert, formCase, plainForm, startSession } from "./kit";

/**
 * After the right password, the site asks for the code of an authenticator app and checks it against
 * the user's TOTP secret. `codeFields` draws the prompt: one field, or one box per digit.
 */
function totpCase(accounts: Accounts, name: string, codeFields: string): Router {
  const pending = new Map<string, string>();
  const r = Router();
  const prompt = (error?: string) =>
    page("Two-step verification", `<h1>Two-step verification</h1><p>Enter the 6-digit code from your authenticator app.</p>${errorAlert(error)}
<form method="post" action="${base(name)}/verify">${codeFields}<button type="submit">Verify</button> <button type="button">Use another method</button></form>`,
      // Focus moves to the next box as each digit is typed, as such prompts do.
      `for (const box of document.querySelectorAll("input[maxlength='1']")) box.addEventListener("input", () => box.nextElementSibling?.focus());`);
  r.get(`${base(name)}/verify`, (_req, res) => {
    res.type("html").send(prompt());
  });
  r.post(`${base(name)}/verify`, urlencoded({ extended: false }), (req, res) => {
    const ticket = readCookie(req.headers.cookie, "mfa_pending") ?? "";
    const username = pending.get(ticket);
    if (!username) return res.redirect(302, `${base(name)}/login`);
    const body = (req.body ?? {}) as Record<string, string>;
    const code = body.otp ?? [1, 2, 3, 4, 5, 6].map((i) => body[`d${i}`] ?? "").join("");
    if (!accounts.checkTotp(username, code)) return res.type("html").send(prompt("That code didn't work. Check your authenticator app."));
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

export const otpPrompt = (accounts: Accounts) =>
  totpCase(accounts, "otp-prompt", `<label>Code <input name="otp" inputmode="numeric" autocomplete="one-time-code" maxlength="6"></label>`);
export const totpSplit = (accounts: Accounts) =>
  totpCase(
    accounts,
    "totp-split",
    `<div class="boxes">${[1, 2, 3, 4, 5, 6].map((i) => `<input name="d${i}" inputmode="numeric" maxlength="1" aria-label="Digit ${i}" style="width:2rem">`).join("")}</div>`,
  );
