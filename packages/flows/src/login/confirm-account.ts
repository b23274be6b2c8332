import type { Page } from "@authsvc/browser";
import { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { awaitVerification } from "../inbox/await-verification";
import { openEmailedLink } from "../page/emailed-link";
import { PageWatch } from "../page/page-watch";
import { readNotes, sentencesShown } from "../page/page-sayings";
import { type FlowOptions, type PasswordLoginInput, type PasswordLoginResult, signInOnPage } from "./password-login";
import { EXPIRED } from "@authsvc/contracts";

/**
 * How an account waiting for its email to be confirmed gets confirmed later: a link or code the caller
 * read in their own mailbox, or the confirmation link that reached our inbox since `inboxSince`.
 */
export type Confirmation = { link: string } | { code: string } | { inboxSince: Date };

// A confirmation already in the inbox is there at once; this only covers a message being stored right now.
const INBOX_LOOK_MS = 3000;

// "Already used" or "already confirmed": the caller may have opened the link themselves; the login tells.
const ALREADY =
  /already (been )?(used|confirmed|verified|activated)|bereits (bestätigt|verwendet|aktiviert)|d[ée]j[àa] (confirm|utilis|activ|v[ée]rifi)/i;

/** What the page says against the link it was opened with: an HTTP error, or words that it expired or is invalid. */
async function linkRefusal(page: Page, watch: PageWatch): Promise<string | null> {
  const sentences = sentencesShown(await readNotes(page));
  if (watch.documentStatus >= 400)
    return sentences.find((t) => EXPIRED.test(t) || /\binvalid\b/i.test(t)) ?? `HTTP ${watch.documentStatus}`;
  // "Already used" alone may be the caller's own click; "invalid or already used" refuses.
  return sentences.find((t) => EXPIRED.test(t) && (!ALREADY.test(t) || /\binvalid\b|expired/i.test(t))) ?? null;
}

/**
 * Confirms an account the site created earlier and signs in with its stored secret: opens the
 * confirmation link first (refused: `verification_failed`), or answers the site's code prompt after the
 * password with the given code. The login itself is the ordinary one, so its verdict is earned the same way.
 */
export async function confirmAndSignIn(
  page: Page,
  input: PasswordLoginInput,
  confirmation: Confirmation,
  options: FlowOptions,
): Promise<PasswordLoginResult> {
  const deadline = new Deadline(options.timeoutMs);
  const watch = await PageWatch.attach(page, options.guard, input.loginUrl);
  const step = options.onStep ?? (() => undefined);
  let link = "link" in confirmation ? confirmation.link : null;
  if ("inboxSince" in confirmation) {
    if (!input.inbox)
      throw new LoginFlowError(
        "verification_pending",
        "no mail to this account's address reaches the service; send the confirmation link or code",
      );
    step("look for the confirmation link in the inbox");
    link = await awaitVerification(
      input.inbox,
      "link",
      confirmation.inboxSince,
      new URL(input.loginUrl).hostname,
      Math.min(INBOX_LOOK_MS, deadline.remaining()),
      "confirmation",
    ).catch((err: unknown) => {
      throw err instanceof LoginFlowError && err.code === "timeout"
        ? new LoginFlowError("verification_pending", err.message)
        : err;
    });
  }
  if (link) {
    step("open the confirmation link");
    await openEmailedLink(page, watch, link, deadline, "confirmation link", step);
    const refused = await linkRefusal(page, watch);
    if (refused) throw new LoginFlowError("verification_failed", `the site refused the confirmation link: ${refused}`);
  }
  step("open login page");
  await watch.open(input.loginUrl, deadline, "login page");
  return signInOnPage(
    page,
    watch,
    "code" in confirmation ? { ...input, code: confirmation.code } : input,
    options,
    deadline,
  );
}
