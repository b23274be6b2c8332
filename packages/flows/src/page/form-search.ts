import type { SelectorPath } from "./read-page";
import type { FlowStep } from "./steps";

// How long a page may take to show its form (login or signup) after the flow's last action on it (load,
// click, submit): a script-drawn form, a slow page.
export const FORM_WAIT_MS = 8000;
// A "Log in" or "Sign up" link is only followed once the page had a moment to draw a form of its own.
const OPENER_PATIENCE_MS = 700;

/**
 * The clock of a search for a form, as the login and the signup engines wait for one: restarted by every
 * action on the page (a banner accepted, a link followed, a step sent).
 */
export class FormSearch {
  private lastProgress = Date.now();

  /** The flow acted on the page: it gets its whole time again to show the form. */
  progressed(): void {
    this.lastProgress = Date.now();
  }

  /** Whether the page had its moment to draw a form of its own, so that a "Log in" link may be followed. */
  openerDue(): boolean {
    return Date.now() - this.lastProgress >= OPENER_PATIENCE_MS;
  }

  /** Whether the page showed no form for the whole wait since the flow's last action. */
  overdue(): boolean {
    return Date.now() - this.lastProgress > FORM_WAIT_MS;
  }
}

/** The click that accepts a cookie banner one of `scans` shows, or null. */
export function consentClick(
  scans: ReadonlyArray<{ key: string; reading: { consent: SelectorPath | null } }>,
): FlowStep | null {
  const shown = scans.find((s) => s.reading.consent);
  return shown ? { action: "click", purpose: "consent", frame: shown.key, path: shown.reading.consent! } : null;
}

/** The click on a link or button that opens the form ("Log in", "Sign up") one of `scans` shows, or null. */
export function openerClick(
  scans: ReadonlyArray<{ key: string; reading: { opener: SelectorPath | null } }>,
): FlowStep | null {
  const shown = scans.find((s) => s.reading.opener);
  return shown ? { action: "click", purpose: "opener", frame: shown.key, path: shown.reading.opener! } : null;
}
