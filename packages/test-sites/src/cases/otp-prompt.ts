import { Router, urlencoded } from "express";
import { type Accounts, page } from "../accounts";
import { base, formCase, plainForm } from "./kit";

const NAME = "otp-prompt";

/** After the right password, the site asks for a code from an authenticator app. */
export function otpPrompt(accounts: Accounts): Router {
  const r = Router();
  r.get(`${base(NAME)}/verify`, (_req, res) => {
    res.type("html").send(page("Two-step verification", `<h1>Two-step verification</h1>
<p>Enter the 6-digit code from your authenticator app.</p>
<form method="post" action="${base(NAME)}/verify"><label>Code <input name="otp" inputmode="numeric" autocomplete="one-time-code" maxlength="6"></label>
<button type="submit">Verify</button></form>`));
  });
  r.post(`${base(NAME)}/verify`, urlencoded({ extended: false }), (_req, res) => {
    res.redirect(302, `${base(NAME)}/verify`);
  });
  r.use(
    formCase(accounts, NAME, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error)}`), {
      onSuccess: (_req, res) => {
        res.cookie("otp_pending", "1", { httpOnly: true, path: "/" }).redirect(302, `${base(NAME)}/verify`);
      },
    }),
  );
  return r;
}
