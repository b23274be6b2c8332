import type { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { type AccountMail, awaitAccountMail, awaitVerification } from "../inbox/await-verification";
import type { SignupInput } from "./signup";
import type { SignupRun } from "./signup-run";

// How long the site's mail is waited for, unless the request says.
const INBOX_WAIT_MS = 120_000;

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
