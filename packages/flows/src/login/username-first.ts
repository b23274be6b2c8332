import type { Page } from "@authsvc/browser";
import { LoginFlowError } from "../flow-error";
import { newSayings, readNotes, refusalSaid, sentencesShown } from "../page/page-sayings";
import { refusalCode } from "@authsvc/contracts";
import { type FrameScan, mergeSignals, type PageSignals, scanPage } from "../page/scan-page";
import { typeIdentifier } from "./fill-form";
import type { LoginRun } from "./login-run";
import { settle, type UnsettledMessage } from "./verdict/unsettled-message";

// A message without refusal words ("Checking…") is a verdict only once it stayed this long.

/**
 * A page that asks for the username first (the password comes on the next page, or appears on this one),
 * as the detection meets it: the username typed and sent on once the page settled on it, then the site's
 * answer read for a refusal of it while the first step is shown again.
 */
export class UsernameFirst {
  /** How many times the username was sent on. */
  sent = 0;
  private seen = 0;
  private messagesBefore = new Set<string>();
  private sentencesBefore = new Set<string>();
  private unsettled: UnsettledMessage | null = null;

  constructor(private readonly run: LoginRun) {}

  /**
   * `scan` shows a username field without a password field: "again" once the username went on, "settle"
   * while the page may still draw its password field, null (nothing to do) while the site answers. Throws
   * the site's refusal of the username.
   */
  async shown(scan: FrameScan, signals: PageSignals): Promise<"again" | "settle" | null> {
    if (this.sent > 0) {
      // The first step shown again, refusing the username in plain text (under the field, a paragraph).
      await refusedUsername(this.run.page, this.sentencesBefore);
      // The site refused the username: refusal words at once, any other message once it stayed a while.
      const fresh = signals.messages.find((m) => !this.messagesBefore.has(m));
      const code = fresh ? refusalCode(fresh) : null;
      if (fresh) {
        const waited = settle(this.unsettled, fresh, Date.now());
        this.unsettled = waited.unsettled;
        if (code !== null || waited.settled)
          throw new LoginFlowError(code === "account_locked" ? code : "invalid_credentials", fresh);
      }
      return null;
    }
    if (!(await settledFirstStep(scan, this.seen++))) {
      // Not yet sure there is no password field: a frame still parsing (a slow widget) or a form
      // drawn in two ticks shows its username field first. Pressing Enter there would send the form
      // without its password (a failed attempt on the site); read the page again once it drew nothing more.
      return "settle";
    }
    const { key, reading } = scan;
    await typeIdentifier(this.run, scan);
    this.messagesBefore = new Set(signals.messages);
    this.sentencesBefore = await sentencesNow(this.run.page);
    this.sent++;
    await this.run.send("next", key, reading.submit, reading.identifier!);
    return "again";
  }
}

/**
 * Whether a username field without a password field is the page's first step, not a form half read:
 * its frame has finished parsing, and an earlier read already saw the same (`seenBefore`).
 */
async function settledFirstStep(scan: FrameScan, seenBefore: number): Promise<boolean> {
  const parsed = await scan.frame.evaluate(() => document.readyState !== "loading").catch(() => false);
  return parsed && seenBefore > 0;
}

/** Whether the page shows a username field without a password field (a first step). */
export function firstStepShown(run: LoginRun): Promise<boolean> {
  return scanPage(run.page, run.values.identifier, run.extraKeys).then(
    (scans) => mergeSignals(scans).identifierOnlyShown,
    () => false,
  );
}

/** The sentences the page shows now: what the site's answer to the next step is compared with. */
export async function sentencesNow(page: Page): Promise<Set<string>> {
  return new Set(sentencesShown(await readNotes(page)));
}

/**
 * Throws the site's refusal of the username when the page newly says one, whatever its markup. Only
 * asked of a first step shown again: the next page's own words ("Wrong account?") are not a refusal.
 */
export async function refusedUsername(page: Page, before: Set<string>): Promise<void> {
  const said = refusalSaid(newSayings(await readNotes(page), before), "invalid_credentials");
  if (said) throw new LoginFlowError(said.code, said.message);
}
