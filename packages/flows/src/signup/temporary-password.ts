import { captureState, type Page } from "@authsvc/browser";
import type { CapturedSession } from "@authsvc/contracts";
import type { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import type { PageWatch } from "../page/page-watch";
import { mergeSignals, scanPage } from "../page/scan-page";
import { evidenceOnPage } from "../page/session-evidence";
import { snapshotSession } from "../page/session-snapshot";
import type { SignupRun } from "./signup-run";
import { bestForm, isSetPasswordForm, scanSignup, type SignupScan } from "./signup-scan";
import { PROGRESS } from "./signup-verdicts";
import { type Next, watchPage } from "../page/watch-page";
import { shownLongEnough } from "../page/watch-timing";

// How long the page may take to answer the new password before the flow decides.
const SETTLE_MS = 10_000;
const MAX_PASSWORD_RETRIES = 2;

/**
 * Sets a new password where the first login with a mailed one asks for it. Returns the session once the
 * page shows the account signed in (a sign-out control and new session state since the password was set,
 * on two polls), or `"login"` when the site took the password and offers to log in with it.
 */
export async function replaceTemporaryPassword(
  run: SignupRun,
  page: Page,
  watch: PageWatch,
  form: SignupScan,
  deadline: Deadline,
): Promise<CapturedSession | "login"> {
  run.step("the site asks for a new password");
  const context = page.browserContext();
  const before = await snapshotSession(context, page, run.identifier ?? "");
  // What the page said before ("You must set a new password") is no refusal of the one we set.
  const seen = new Set(before.messages);
  await run.setPassword(form);
  let retries = 0;
  let signedIn = false;
  let loginOfferedAt: number | null = null;
  return watchPage(page, {
    deadline,
    ms: SETTLE_MS,
    check: () => watch.check(),
    read: () => Promise.all([scanSignup(page).catch(() => []), scanPage(page, run.identifier ?? "")]),
    decide: async ([again, scans]): Promise<Next<CapturedSession | "login">> => {
      const shown = bestForm(again);
      const setForm = !!shown && isSetPasswordForm(shown);
      const signals = mergeSignals(scans);
      const refusal = signals.messages.find((m) => !seen.has(m) && !PROGRESS.test(m));
      if (setForm && refusal) {
        if (!run.passwordGenerated || retries >= MAX_PASSWORD_RETRIES)
          throw new LoginFlowError("verification_failed", `the site refused the new password: ${refusal}`);
        retries++;
        seen.add(refusal);
        await run.setPassword(shown!, refusal);
        return "again";
      }
      const took = !setForm && !refusal && scans.unreadable === 0 && watch.documentStatus < 400;
      if (took) run.acceptPassword();
      const now =
        took &&
        !signals.passwordShown &&
        !signals.otpPrompt &&
        !signals.confirmByEmail &&
        !signals.identifierOnlyShown &&
        !!signals.signedIn &&
        (await evidenceOnPage(page, before.baseline, signals.storageEntries, { account: true, movedAway: false })) ===
          "strong";
      // Signed in on two looks in a row, as the signup verdict asks.
      if (now && signedIn) return { verdict: await captureState(context, page, watch.visited, watch.documentOrigins) };
      signedIn = now;
      // "Your password was changed. Log in", still shown a watch's pause later: the account signs in with its
      // new password (timed: a look woken by the page drawing something may come at once).
      const offersLogin = took && !now && (signals.passwordShown || scans.some((s) => s.reading.opener));
      loginOfferedAt = offersLogin ? (loginOfferedAt ?? Date.now()) : null;
      if (shownLongEnough(loginOfferedAt, Date.now(), 2)) return { verdict: "login" };
      return now ? "confirm" : "wait";
    },
    timeUp: () => {
      throw new LoginFlowError(
        "login_unconfirmed",
        "the site asked for a new password and did not sign the account in after it was set",
      );
    },
  });
}
