import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { type AccountMail, awaitAccountMail, awaitVerification, INBOX_WAIT_MS } from "../inbox/await-verification";
import { openEmailedLink } from "../page/emailed-link";
import type { PageWatch } from "../page/page-watch";
import type { SignupInput } from "./signup";
import type { SignupRun } from "./signup-run";

/** A wait for the site's mail that timed out: the account exists and waits for it, and the caller can still give it. */
const stillPending = (err: unknown) => {
  throw err instanceof LoginFlowError && err.code === "timeout"
    ? new LoginFlowError("verification_pending", err.message)
    : err;
};

/** The site's mails to a new account, from our inbox: its confirmation (a code or a link), or its password. */
export function signupMail(run: SignupRun, input: SignupInput, deadline: Deadline) {
  const siteHost = new URL(input.signupUrl).hostname;
  const waitMs = () => Math.min(input.inboxWaitMs ?? INBOX_WAIT_MS, deadline.remaining());
  return {
    async confirmation(wanted: "code" | "link"): Promise<string> {
      if (!input.inbox) {
        throw new LoginFlowError(
          "verification_pending",
          `the site wants the new account's email confirmed by a ${wanted}, and no mail to ${run.email ?? "its address"} reaches the service`,
        );
      }
      run.step(`wait for the confirmation ${wanted} by email`);
      const wait = waitMs();
      return awaitVerification(
        input.inbox,
        wanted,
        run.since ?? (await input.inbox.mark()),
        siteHost,
        wait,
        "confirmation",
      ).catch(stillPending);
    },
    /**
     * The confirmation link, looked for once the site refused the new account's login (`said`): the account
     * may wait for its email to be confirmed, whether or not the page said so.
     */
    async linkAfterRefusal(said: string): Promise<string> {
      if (!input.inbox)
        throw new LoginFlowError(
          "verification_pending",
          `${said}; it may wait for its email to be confirmed, and no mail to ${run.email ?? "its address"} reaches the service`,
        );
      run.step("the site refused the new account's login; looking for its confirmation link by email");
      const wait = waitMs();
      return awaitVerification(input.inbox, "link", run.since ?? new Date(0), siteHost, wait, "confirmation").catch(
        (e: unknown) => {
          throw e instanceof LoginFlowError && e.code === "timeout"
            ? new LoginFlowError("verification_pending", `${said}; no confirmation link came by email`)
            : e;
        },
      );
    },
    async account(): Promise<AccountMail> {
      if (!input.inbox) {
        throw new LoginFlowError(
          "verification_pending",
          `the site mails the new account's password (or a link to set it), and no mail to ${run.email ?? "its address"} reaches the service`,
        );
      }
      run.step("wait for the account's password or its link by email");
      const wait = waitMs();
      return awaitAccountMail(input.inbox, run.since ?? (await input.inbox.mark()), siteHost, wait).catch(stillPending);
    },
  };
}

/** Opens the site's confirmation link: the page it opens is a new verdict to watch for. */
export async function openConfirmationLink(
  page: Page,
  watch: PageWatch,
  link: string,
  deadline: Deadline,
  step: (name: string) => void,
): Promise<void> {
  step("open the confirmation link");
  watch.resetVerdict();
  await openEmailedLink(page, watch, link, deadline, "confirmation link", step);
}
