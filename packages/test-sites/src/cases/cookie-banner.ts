import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { formCase, plainForm } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "cookie-banner";

// A consent wall: a backdrop over the whole page until the visitor accepts or rejects.
const BANNER = `<div id="cookie-consent" style="position:fixed;inset:0;background:rgba(0,0,0,.5);z-index:10">
<div style="position:absolute;bottom:0;left:0;right:0;background:#fff;padding:1rem">
<p>We use cookies to improve your experience.</p><button id="reject">Reject all</button> <button id="accept">Accept all</button></div></div>`;

/** A cookie-consent banner covering the login form until it is answered. */
function cookieBanner(accounts: Accounts): Router {
  return formCase(accounts, NAME, (error) =>
    page(
      "Sign in",
      `<h1>Sign in</h1>${plainForm(NAME, error)}${BANNER}`,
      `const banner = document.getElementById("cookie-consent");
if (document.cookie.includes("consent=")) banner.remove();
for (const id of ["accept", "reject"]) document.getElementById(id).onclick = () => {
  document.cookie = "consent=" + id + "; path=/; max-age=31536000"; banner.remove();
};`,
    ),
  );
}

export const cookieBannerCase = defineCase({
  router: ({ accounts }) => cookieBanner(accounts),
  cases: [standard(NAME)],
});
