import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, formCase, plainForm } from "./kit";

const NAME = "captcha";

/** A login form guarded by a reCAPTCHA-style checkbox widget (served locally, in an iframe). */
export function captcha(accounts: Accounts): Router {
  const r = formCase(
    accounts,
    NAME,
    (error) =>
      page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error, `<div class="g-recaptcha" data-sitekey="6Lc_fixture">
<iframe title="reCAPTCHA" src="${base(NAME)}/recaptcha/api2/anchor" width="304" height="78" style="border:0"></iframe></div>`)}`),
    { verify: (body) => (body["g-recaptcha-response"] ? null : "Please complete the CAPTCHA.") },
  );
  r.get(`${base(NAME)}/recaptcha/api2/anchor`, (_req, res) => {
    res.type("html").send(page("reCAPTCHA", `<label><input type="checkbox"> I'm not a robot</label>`));
  });
  return r;
}
