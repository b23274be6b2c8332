import { sessionCookie } from "./kit";
import { at, defineCase, standard } from "./login-case";

// The pages under sites/ predate the cases: server.ts mounts their routers, before the cases'.

/** The classic form, the SPA and two pages that sign in to the classic site. */
export const sitePageCases = defineCase({
  cases: [
    standard("classic", { url: at("/classic/login"), account: "/classic/account" }),
    standard("spa", {
      url: at("/spa/login"),
      session: { storageKey: "spa_token", storageHost: "127.0.0.1" },
      account: undefined,
    }),
    standard("notice", {
      site: "classic",
      url: at("/notice/login"),
      session: { cookie: sessionCookie("classic"), cookieDomain: "127.0.0.1" },
      account: "/classic/account",
    }),
    standard("lockout", {
      url: at("/lockout/login"),
      session: { cookie: sessionCookie("classic"), cookieDomain: "127.0.0.1" },
      account: "/classic/account",
      wrongPassword: "account_locked",
    }),
  ],
});

/** A page with no login form at all. */
export const noFormCase = defineCase({
  cases: [{ name: "no-form", site: "none", url: at("/no-form"), expect: "form_not_found" }],
});
