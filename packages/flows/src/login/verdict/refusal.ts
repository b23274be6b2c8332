import type { PollReading } from "./poll-reading";
import { fail, type Step } from "./state";

/** A locked account, said anywhere: the account's own state, whatever else the page shows. */
export function locked({ refusals }: PollReading): Step | null {
  const said = refusals.find((r) => r.code === "account_locked");
  return said ? fail("account_locked", said.m) : null;
}

/** A CAPTCHA a person must answer; a form shown again with its CAPTCHA and "wrong password" is the password's refusal. */
export function captcha({ refusals, signals }: PollReading): Step | null {
  if (
    refusals.some((r) => r.code === "captcha_blocked") ||
    (signals.captcha && !refusals.some((r) => r.code === "invalid_credentials"))
  ) {
    return fail("captcha_blocked", "the site asked for a CAPTCHA");
  }
  return null;
}

/** A refusal on a page past the form; a risk notice on a page that shows the account ("We noticed unusual activity") walls nothing off. */
export function standingRefusal({ stillAsking, refusals, signals }: PollReading): Step | null {
  if (stillAsking) return null;
  const standing = refusals.find((r) => r.code !== "login_blocked" || !signals.signedIn);
  return standing ? fail(standing.code!, standing.m) : null;
}

/** A formless page without the account that says, in plain text, that the login failed (no alert markup). */
export function formlessRefusal({ stillAsking, found, sayings, refusalOf }: PollReading): Step | null {
  if (stillAsking || found) return null;
  const said = sayings
    .map((s) => ({ m: s.block, code: refusalOf(s.news) }))
    .find((r) => r.code === "account_locked" || r.code === "invalid_credentials" || r.code === "verification_failed");
  return said ? fail(said.code!, said.m) : null;
}

/** The site's own error page after the form: it never got to judge the login. */
export function siteError({ stillAsking, status }: PollReading): Step | null {
  if (stillAsking || status < 500) return null;
  return fail("target_unreachable", `the site answered the login with HTTP ${status}`);
}
