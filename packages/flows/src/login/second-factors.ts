import type { Page } from "@authsvc/browser";
import { CODE_SOURCE_WORDS } from "@authsvc/contracts";
import type { Deadline } from "../deadline";
import { awaitVerification, INBOX_WAIT_MS, type Inbox } from "../inbox/await-verification";
import { answerOtp } from "../page/answer-otp";
import { mergeSignals, type PageSignals, scanPage } from "../page/scan-page";
import { performStep, typeText } from "../page/steps";
import { openEmailedLink } from "../page/emailed-link";
import type { PageWatch } from "../page/page-watch";
import type { FrameScan } from "../page/scan-page";
import type { ClassifyOptions, PendingApproval, PersonStep, StepAnswered } from "./classify-outcome";
import { HANDOFF_CODE_TRIES, type HandoffAnswer, type HandoffQuestion, promptOf } from "../handoff";
import { LoginFlowError } from "../flow-error";
import type { PasswordLoginInput } from "./password-login";

/**
 * How this login answers what the site asks once the password went out: a one-time code (the caller's,
 * a TOTP, or one from our inbox) and an emailed sign-in link. Each is absent when the request brought no
 * way to answer it; the verdict is then mfa_required. `since`: when the submit went out, on the inbox's clock.
 */
export function secondFactors(
  page: Page,
  watch: PageWatch,
  input: PasswordLoginInput,
  since: () => Date | null,
  deadline: Deadline,
  step: (name: string) => void,
): Pick<ClassifyOptions, "answerOtp" | "answerLink" | "codeTries" | "awaitApproval" | "answerStep"> {
  const siteHost = new URL(input.loginUrl).hostname;
  const fromInbox = (inbox: Inbox, wanted: "code" | "link") => async () => {
    step(`wait for the sign-in ${wanted} ${inbox.kind === "email" ? "by email" : "by SMS"}`);
    const from = since() ?? (await inbox.mark());
    return awaitVerification(
      inbox,
      wanted,
      from,
      siteHost,
      Math.min(input.inboxWaitMs ?? INBOX_WAIT_MS, deadline.remaining()),
    );
  };
  // A person (the caller allowed a hand-off) answers a code nothing else can read: the site's prompt, then
  // after a refused code the site's refusal, are what they are shown.
  const handoff = input.handoff;
  const byPerson = handoff
    ? (prompt: FrameScan, refusal?: string) => async (): Promise<string | null> => {
        step(refusal ? "ask a person for another code" : "ask a person for the code");
        // The person may answer through the API, or type the code into the page itself (the live view).
        const withdraw = new AbortController();
        const asked = handoff.ask(
          { reason: "code", prompt: promptOf(refusal ?? prompt.reading.text), fields: ["code"] },
          withdraw.signal,
        );
        asked.catch(() => undefined);
        const onPage = stepGone(page, withdraw.signal, (signals) => signals.otpPrompt).then(() => null);
        try {
          const answer = await Promise.race([asked, onPage]);
          if (answer === null) return null;
          if (!answer.code)
            throw new LoginFlowError("verification_failed", "the person gave no code", { retryable: false });
          return answer.code;
        } finally {
          withdraw.abort();
        }
      }
    : null;
  // A prompt that speaks of an email or text message is answered from our inbox; one that speaks of an
  // authenticator app (or says nothing) with the TOTP secret, when the request gave one; else by a person.
  const codeSource = (prompt: FrameScan, refusal?: string): (() => Promise<string | null>) | null => {
    if (refusal) return byPerson ? byPerson(prompt, refusal) : null;
    const inbox = input.inbox ? fromInbox(input.inbox, "code") : null;
    const byMessage =
      CODE_SOURCE_WORDS.message.test(prompt.reading.text) && !CODE_SOURCE_WORDS.app.test(prompt.reading.text);
    const { code } = input;
    if (code) return async () => code;
    return (byMessage ? (inbox ?? input.totp) : (input.totp ?? inbox)) ?? byPerson?.(prompt) ?? null;
  };
  const linkFromInbox = input.inbox ? fromInbox(input.inbox, "link") : null;
  // Only a person gets another try: a TOTP or a mailed code refused once would be refused again.
  const personOnly = !input.code && !input.totp && !input.inbox;
  // An approval on another device: the person is asked while the page is watched; it goes on by itself.
  const awaitApproval = handoff
    ? (prompt: string, reason: "approval" | "verification" = "approval"): PendingApproval => {
        step(reason === "approval" ? "ask a person to approve the sign-in" : "ask a person to verify it's them");
        const withdraw = new AbortController();
        const pending = { answered: false, failure: undefined as unknown, cancel: () => withdraw.abort() };
        handoff.ask({ reason, prompt, fields: [] }, withdraw.signal).then(
          () => void (pending.answered = true),
          (err: unknown) => void (withdraw.signal.aborted ? undefined : (pending.failure = err)),
        );
        return pending;
      }
    : undefined;
  // A security question, a "verify it's you" field, a chooser or the site's terms: the person answers (or
  // picks) through the API or on the page itself.
  const answerStep = handoff
    ? async (scan: FrameScan, kind: PersonStep, refusal?: string): Promise<StepAnswered> => {
        const { question: asks, verify, chooser: picks, terms } = scan.reading;
        // What is typed, and where: the security question's answer, or the detail the identity check asks.
        const typed =
          kind === "question"
            ? asks
            : kind === "verification" && verify?.field
              ? { field: verify.field, submit: verify.submit, prompt: verify.prompt }
              : null;
        // What is picked: an account of the chooser, or an answer to the terms.
        const choices = kind === "chooser" ? (picks?.options ?? []) : kind === "consent" ? (terms?.options ?? []) : [];
        const asked: HandoffQuestion = typed
          ? {
              reason: kind === "question" ? "answer" : "verification",
              prompt: promptOf(refusal ?? typed.prompt),
              fields: ["answer"],
            }
          : {
              reason: kind === "consent" ? "consent" : "choice",
              prompt: promptOf(refusal ?? (kind === "consent" ? terms?.prompt : picks?.prompt) ?? ""),
              fields: ["choice"],
              choices: choices.map((o) => o.label),
            };
        step(
          {
            question: "ask a person to answer the security question",
            verification: "ask a person to verify it's them",
            chooser: "ask a person to choose",
            consent: "ask a person whether to accept the site's terms",
          }[kind] + (refusal ? " again" : ""),
        );
        const withdraw = new AbortController();
        const asking = handoff.ask(asked, withdraw.signal);
        asking.catch(() => undefined);
        const shown = (signals: PageSignals) =>
          !!{
            question: signals.question,
            verification: signals.verify,
            chooser: signals.chooser,
            consent: signals.terms,
          }[kind];
        const onPage = stepGone(page, withdraw.signal, shown).then(() => null);
        let answer: HandoffAnswer | null;
        try {
          answer = await Promise.race([asking, onPage]);
        } finally {
          withdraw.abort();
        }
        if (answer === null) return step("the person answered on the page");
        const values = { identifier: "", password: "", additionalFields: {} };
        if (typed) {
          if (!answer.answer)
            throw new LoginFlowError(
              "verification_failed",
              `the person gave no answer to the site's ${kind === "question" ? "security question" : "identity check"}`,
              { retryable: false },
            );
          step("type the answer");
          if (!(await typeText(page, scan.key, typed.field, answer.answer))) return;
          const sent =
            typed.submit &&
            (await performStep(
              page,
              { action: "click", purpose: "next", frame: scan.key, path: typed.submit },
              values,
            ).catch(() => false));
          if (!sent)
            await performStep(
              page,
              { action: "enter", purpose: "next", frame: scan.key, path: typed.field },
              values,
            ).catch(() => false);
          return;
        }
        const option = choices.find((o) => o.label === answer!.choice);
        if (!option)
          throw new LoginFlowError(
            "verification_failed",
            `the person's choice is not one the page offers: ${answer.choice ?? "(none)"}`,
            { retryable: false },
          );
        step(
          kind === "consent"
            ? `answer the site's terms as the person said: ${option.label}`
            : "choose as the person said",
        );
        if (kind === "consent") {
          const accept = "accept" in option && option.accept;
          // Accepting is the person's decision; its "I agree" box goes with it.
          if (accept && terms?.agree)
            await performStep(
              page,
              { action: "check", purpose: "consent", frame: scan.key, path: terms.agree },
              values,
            ).catch(() => false);
          await performStep(
            page,
            { action: "click", purpose: "next", frame: scan.key, path: option.path },
            values,
          ).catch(() => false);
          return accept ? undefined : "declined";
        }
        await performStep(page, { action: "click", purpose: "next", frame: scan.key, path: option.path }, values).catch(
          () => false,
        );
        if ("radio" in option && option.radio && picks?.submit)
          await performStep(
            page,
            { action: "click", purpose: "next", frame: scan.key, path: picks.submit },
            values,
          ).catch(() => false);
      }
    : undefined;
  return {
    answerStep,
    awaitApproval,
    codeTries: handoff && personOnly ? HANDOFF_CODE_TRIES : 1,
    answerOtp:
      input.totp || input.inbox || input.code || handoff
        ? (prompt, refusal) => {
            // The site's answer to this code is read from the document it loads next.
            if (refusal) watch.resetVerdict();
            return answerOtp(page, prompt, codeSource(prompt, refusal)!, step);
          }
        : undefined,
    answerLink: linkFromInbox
      ? async () => {
          const link = await linkFromInbox();
          step("open the sign-in link");
          await openEmailedLink(page, watch, link, deadline, "sign-in link", step);
        }
      : undefined,
  };
}

// How often the page is looked at while a person is asked: answered on the page itself, the step goes.
const PROMPT_LOOK_MS = 1000;

/** Resolves once the page no longer shows the step (the person answered it there); never, once `stop` is aborted. */
async function stepGone(page: Page, stop: AbortSignal, shown: (signals: PageSignals) => boolean): Promise<void> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, PROMPT_LOOK_MS));
    if (stop.aborted) return new Promise<void>(() => undefined);
    const scans = await scanPage(page, "").catch(() => null);
    if (scans && scans.length > 0 && scans.unreadable === 0 && !shown(mergeSignals(scans))) return;
  }
}
