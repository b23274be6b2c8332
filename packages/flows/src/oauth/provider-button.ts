import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { readFrames, scanPage } from "../page/scan-page";
import { performStep } from "../page/steps";
import { type Next, watchPage } from "../page/watch-page";
import { OTHER_PROVIDERS, type ProviderModule } from "./provider-modules";
import { readSignInControlsInPage, type SignInControl } from "./read-oauth-page";

// How long a site's page may take to draw its "Continue with …" buttons (script-rendered pages).
const BUTTON_WAIT_MS = 8000;
// A "Log in" link is followed (to the page with the buttons) once the page had this long to show them.
const OPENER_PATIENCE_MS = 1500;
// A button or link that names the provider's way of signing in: "Continue with", "Sign in with", "Log in via".
const SIGN_IN_WITH =
  /\b(continue|sign ?in|log ?in|login|sign ?up|register|connect|join|authenticate|proceed)\b.{0,12}\b(with|via|using|through)\b|^(with|via|mit|avec|con|com)\b/i;

export interface ProviderButton {
  frame: string;
  control: SignInControl;
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return "";
  }
};

/**
 * How well a control fits the provider: its label names the provider, or it leads to the provider's own
 * host. A control that names another provider ("Continue with Google" when we want Acme ID) never fits.
 */
export function buttonScore(control: SignInControl, module: ProviderModule): number {
  const text = control.text;
  const leadsThere = control.target !== "" && module.servesSignIn(hostOf(control.target));
  const named = module.label
    ? module.label.test(text) || module.label.test(decodeURIComponent(control.target.replace(/%(?![0-9a-f]{2})/gi, "")))
    : false;
  if (!named && !leadsThere && OTHER_PROVIDERS.test(text)) return 0;
  // An issuer named by URL alone: a "Continue with …" that names no other provider may be its button; the
  // flow checks where it leads before it types anything there.
  if (!module.label && !leadsThere) return SIGN_IN_WITH.test(text) && !OTHER_PROVIDERS.test(text) ? 1 : 0;
  let score = 0;
  if (leadsThere) score += 4;
  if (named && module.label!.test(text)) score += 3;
  else if (named) score += 2; // its address names it: /auth/google
  if (score > 0 && SIGN_IN_WITH.test(text)) score += 1;
  return score;
}

/**
 * Finds the site's button or link for the provider, waiting while a script draws it, past a cookie banner
 * and behind a "Log in" link when the page is a landing page. Throws `form_not_found` naming the provider
 * when the page offers no way to sign in with it.
 */
export async function findProviderButton(
  page: Page,
  module: ProviderModule,
  deadline: Deadline,
  step: (name: string) => void,
): Promise<ProviderButton> {
  const started = Date.now();
  let lastAction = started;
  let openerClicks = 0;
  let consentClicks = 0;
  return watchPage(page, {
    deadline,
    quiet: false,
    clock: "beforeLook",
    read: () => readFrames(page, readSignInControlsInPage).catch(() => []),
    decide: async (frames): Promise<Next<ProviderButton>> => {
      let best: ProviderButton | null = null;
      let bestScore = 0;
      let guesses = 0;
      for (const { key, reading } of frames) {
        for (const control of reading) {
          const score = buttonScore(control, module);
          if (score === 1) guesses++;
          // Ties go to the shorter label: "Continue with Google" over a paragraph that links it.
          if (
            score > bestScore ||
            (score === bestScore && best && score > 0 && control.text.length < best.control.text.length)
          ) {
            best = { frame: key, control };
            bestScore = score;
          }
        }
      }
      if (best && bestScore > 1) return { verdict: best };
      // A guess is taken only when it is the one sign-in button left once the page had time to draw the rest.
      if (best && guesses === 1 && Date.now() - started >= OPENER_PATIENCE_MS) return { verdict: best };
      if (guesses > 1 && Date.now() - started >= OPENER_PATIENCE_MS) {
        throw new LoginFlowError(
          "form_not_found",
          `the page has several "Continue with …" buttons and none leads to ${module.name}; name the provider by the label on its button`,
        );
      }
      const scans = await scanPage(page, "").catch(() => []);
      const consent = scans.find((s) => s.reading.consent);
      const values = { identifier: "", password: "", additionalFields: {} };
      if (consent && consentClicks < 2) {
        consentClicks++;
        step("accept cookie banner");
        await performStep(
          page,
          { action: "click", purpose: "consent", frame: consent.key, path: consent.reading.consent! },
          values,
        ).catch(() => false);
        lastAction = Date.now();
        return "again";
      }
      const opener = scans.find((s) => s.reading.opener);
      if (opener && openerClicks < 2 && Date.now() - lastAction >= OPENER_PATIENCE_MS) {
        openerClicks++;
        step("open the login page");
        await performStep(
          page,
          { action: "click", purpose: "opener", frame: opener.key, path: opener.reading.opener! },
          values,
        ).catch(() => false);
        lastAction = Date.now();
        return "again";
      }
      if (Date.now() - lastAction > BUTTON_WAIT_MS) {
        throw new LoginFlowError(
          "form_not_found",
          `the page offers no way to sign in with ${module.name} (no "Continue with ${module.name}" button or link)`,
        );
      }
      return "wait";
    },
    timeUp: () => {
      throw deadline.expired(`looking for the ${module.name} button`);
    },
  });
}
