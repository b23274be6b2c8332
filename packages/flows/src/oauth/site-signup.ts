import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import type { FlowOptions } from "../login/password-login";
import type { PageWatch } from "../page/page-watch";
import { mergeSignals, scanPage } from "../page/scan-page";
import { SignupRun } from "../signup/signup-run";
import { bestForm, scanSignup } from "../signup/signup-scan";
import { type Next, watchPage } from "../page/watch-page";

// How long, once the provider sent the browser back, the site may take to show what it still asks.
const FORM_WAIT_MS = 4000;

/** What a signup by OAuth may still have to give the site: the provider vouches for the email, not for these. */
export interface OAuthSignupDetails {
  /** The username to ask for when the site's form wants one (else one made from the email). */
  username?: string;
  /** The person's name, for name fields. */
  name?: string;
  additionalFields?: Record<string, string | number | boolean>;
}

/**
 * Back on the site after signing up through the provider: fills what its signup form still asks (a
 * username, a name, its terms box), as the signup engine fills a signup form, and sends it. Returns the
 * username the form took, or null when the site asked nothing and signed the account in by itself.
 */
export async function finishSiteSignup(
  page: Page,
  watch: PageWatch,
  details: OAuthSignupDetails,
  email: string,
  options: FlowOptions,
  deadline: Deadline,
): Promise<{ username: string | null }> {
  return watchPage(page, {
    deadline,
    ms: FORM_WAIT_MS,
    check: () => watch.check(),
    read: async () => bestForm(await scanSignup(page).catch(() => [])),
    decide: async (form): Promise<Next<{ username: string | null }>> => {
      if (form) {
        // The provider vouched for the email: the site's form gets the account's own values, never a password of ours.
        const input = {
          signupUrl: page.url(),
          email: email.includes("@") ? email : undefined,
          username: details.username,
          name: details.name,
          additionalFields: details.additionalFields,
        };
        const run = new SignupRun(
          page,
          input,
          {
            guard: options.guard,
            timeoutMs: deadline.remaining(),
            onStep: options.onStep,
            onMilestone: options.onMilestone,
            captchaSolver: options.captchaSolver,
          },
          watch,
        );
        options.onStep?.("the site asks for more to create the account");
        await run.fillAndSubmit(form, deadline);
        return { verdict: { username: run.username } };
      }
      // Signed in already (a sign-out control shows): the site asked nothing more.
      const signedIn = mergeSignals(await scanPage(page, "").catch(() => [])).signedIn;
      return signedIn ? { verdict: { username: null } } : "wait";
    },
    timeUp: () => ({ username: null }),
  });
}
