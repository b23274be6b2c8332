import type { BrowserContext, Page, TargetGuard } from "@authsvc/browser";
import type { Cookie, RememberedDevice } from "@authsvc/contracts";
import { registrableDomain } from "@authsvc/messages";
import { Deadline } from "../deadline";
import { bringCookies } from "./bring-cookies";
import { signedInOnReopen } from "./second-look";

// A cookie that outlives a day is one a site may know the browser by again; shorter ones end with the visit.
const MIN_LIFETIME_S = 24 * 3600;
// How often the login page is opened, at most, to tell the cookies that carry the session from the rest.
const MAX_LOOKS = 6;
const LOOK_MS = 15_000;
// Which candidate is left out first while the kept ones still sign in: the ones named like a session, and
// never first the ones named like a device's memory. The names only order the looks; the page decides.
const SESSION_NAMES = /sess|sid\b|_sid|auth|token|jwt|login|logged|identity|user/i;
const DEVICE_NAMES = /device|trust|known|browser|remember|mfa|2fa|tfa|otp|verified/i;

const cookieKey = (c: Cookie) => `${c.domain.replace(/^\./, "").toLowerCase()}|${c.path}|${c.name}`;

/**
 * The site's memory of this browser, out of the cookies a login ended with: its long-lived cookies on the
 * login page's registrable domain that do not carry the session. Kept with the credential and brought into
 * its next login's browser, they make a site that trusts the device (after a second factor, or "remember
 * me") skip what it asks a new one, as it does for a returning person. What carries the session is found by
 * looking, never by names alone: the login page, opened in a browser context of its own that holds only
 * the candidates, must still ask to sign in (signedInOnReopen says false); while it does not, the most
 * session-like candidate is left out and it is looked at again, and once it asks, each one left out before
 * the last is tried back in. Those that stay out are remembered as such (`passOver`) and not looked at again.
 * Cookies already told apart keep their part: when the login ended with no long-lived cookie the credential
 * had not met, the kept ones are only given their new values (an analytics cookie takes one at every visit),
 * and no page is opened, unless one that changed is named like a session. A kept cookie that does carry a
 * session after all makes the next login find no form: it is forgotten then, and that login runs as a new
 * device's (run-auth-flow). Null when nothing changed since `known` (what this login started with), or the page
 * could not be read: what is kept stays. `openContext` makes each look's browser context (with the job's own
 * proxy, so the site sees the login's address); by default one of the page's browser, direct.
 */
export async function rememberedDevice(
  page: Page,
  loginUrl: string,
  cookies: Cookie[],
  known: RememberedDevice | null,
  guard: TargetGuard,
  options: { openContext?: () => Promise<BrowserContext>; timeoutMs?: number } = {},
): Promise<RememberedDevice | null> {
  const { openContext = () => page.browser().createBrowserContext(), timeoutMs = LOOK_MS * MAX_LOOKS } = options;
  const site = registrableDomain(new URL(loginUrl).hostname);
  const now = Date.now() / 1000;
  const passOver = new Set(known?.passOver ?? []);
  const candidates = cookies.filter(
    (c) =>
      c.expires > now + MIN_LIFETIME_S &&
      registrableDomain(c.domain.replace(/^\./, "")) === site &&
      !passOver.has(cookieKey(c)),
  );
  const knownValues = new Map((known?.cookies ?? []).map((c) => [cookieKey(c), c.value]));
  const unchanged =
    candidates.length === knownValues.size && candidates.every((c) => knownValues.get(cookieKey(c)) === c.value);
  if (known && unchanged) return null;
  // Told apart before, and none that changed is named like a session (one that may have become the session's
  // carrier is looked at again: the names only decide whether to look, the page decides what it carries).
  const changedLikeSession = candidates.some(
    (c) => knownValues.get(cookieKey(c)) !== c.value && SESSION_NAMES.test(c.name),
  );
  if (known && candidates.every((c) => knownValues.has(cookieKey(c))) && !changedLikeSession)
    return { cookies: candidates, passOver: [...passOver] };
  // Nothing to remember, and nothing was: nothing to store.
  if (candidates.length === 0) return known ? { cookies: [], passOver: [...passOver] } : null;
  const deadline = new Deadline(timeoutMs);
  let looks = 0;
  // Whether the login page, opened with only these cookies, still asks to sign in (null: it could not be read).
  const asks = async (jar: Cookie[]): Promise<boolean | null> => {
    looks++;
    const context = await openContext();
    try {
      await bringCookies(context, jar);
      const signedIn = await signedInOnReopen({
        context,
        loginUrl,
        guard,
        deadline: new Deadline(Math.min(LOOK_MS, deadline.remaining())),
      });
      return signedIn === null ? null : !signedIn;
    } finally {
      await context.close().catch(() => undefined);
    }
  };
  // Named like a session first; named like a device's memory (and not like a session) last.
  const rank = (c: Cookie) => (SESSION_NAMES.test(c.name) ? 0 : DEVICE_NAMES.test(c.name) ? 2 : 1);
  const order = [...candidates].sort((a, b) => rank(a) - rank(b));
  let kept = candidates;
  const left: Cookie[] = [];
  for (;;) {
    if (looks >= MAX_LOOKS || deadline.remaining() === 0) return null;
    const answer = await asks(kept);
    // Unreadable: nothing is decided on a guess; what was kept stays.
    if (answer === null) return null;
    if (answer) break;
    // Not asked even with nothing kept: the page does not tell a session from a visitor.
    if (kept.length === 0) return null;
    const next = order.find((c) => kept.includes(c))!;
    left.push(next);
    kept = kept.filter((c) => c !== next);
  }
  // The last one left out is the one that carried the session; each one before it is tried back in.
  for (const c of left.slice(0, -1)) {
    if (looks >= MAX_LOOKS || deadline.remaining() === 0) break;
    if ((await asks([...kept, c])) === true) kept = [...kept, c];
  }
  for (const c of candidates) if (!kept.includes(c)) passOver.add(cookieKey(c));
  return { cookies: kept, passOver: [...passOver] };
}
