import type { JobEventType } from "@authsvc/contracts";
import { LoginFlowError, type Handoff, type HandoffAnswer, type HandoffQuestion } from "@authsvc/flows";
import type { AuthJobs, OpenedJob } from "@authsvc/jobs";
import { setPersonScope, type Page } from "@authsvc/browser";
import type { Logger } from "@authsvc/logging";
import type { HandoffRelay, InboxEvents, JobEventFields } from "@authsvc/queue";
import { startLiveView } from "./live-view";

// The record is read again now and then anyway, in case a wake-up was lost.
const RECHECK_MS = 5000;

export interface HandoffDeps {
  jobs: AuthJobs;
  /** Wake-ups of answers (the worker's one subscriber connection). */
  events: InboxEvents;
  /** How long the job waits for a person in all (HANDOFF_MAX_WAIT_MS). */
  maxWaitMs: number;
  /** How many of one org's jobs may wait at once (HANDOFF_MAX_WAITING_PER_ORG). */
  maxWaitingPerOrg: number;
  /** Aborted when the worker stops: a waiting hand-off ends at once (`handoff_interrupted`). */
  stopping: AbortSignal;
  /** The live view's frames and input (the hosted hand-off page). */
  relay: HandoffRelay;
  log: Logger;
}

/** A job's person, with the page they may see and use while asked (the hosted page's live view). */
export interface JobHandoff extends Handoff {
  /** The flow's page: shown live from the first question on. */
  attach(page: Page): void;
  /** The flow ended: the live view stops. */
  close(): Promise<void>;
}

export interface HandoffHooks {
  onProgress: (type: JobEventType, fields?: JobEventFields) => void;
  /** The job waits for a person now: requests waiting for it may answer (202 with the job). */
  onAsked: () => void;
}

/**
 * A job's person, as its flow sees it: asking records the question (`needs_input`), tells the job's clients
 * and webhooks, and waits (woken by the gateway's answer, holding the page and the org's slot) until an
 * answer comes, the hand-off's time is up, or the worker stops. The whole hand-off, however many tries,
 * ends at one `expiresAt`, set at the first question.
 */
export function jobHandoff(deps: HandoffDeps, job: OpenedJob, hooks: HandoffHooks): JobHandoff {
  let expiresAt: number | null = null;
  let tries = 0;
  let page: Page | null = null;
  let live: Promise<{ close(): Promise<void> } | null> | null = null;
  // Whether a question is open: only then does the person's input reach the page (the flow acts in between).
  let open = false;
  const interrupted = () =>
    new LoginFlowError(
      "handoff_interrupted",
      "the worker stopped while the job waited for a person; the password is not sent again",
      { retryable: false },
    );
  return {
    attach(p: Page) {
      page = p;
    },
    async close() {
      const view = await live;
      await view?.close().catch(() => undefined);
    },
    async ask(question: HandoffQuestion, withdraw?: AbortSignal): Promise<HandoffAnswer> {
      if (deps.stopping.aborted) throw interrupted();
      if (expiresAt === null) {
        const waiting = await deps.jobs.waitingForInput(job.orgId);
        if (waiting >= deps.maxWaitingPerOrg) {
          throw new LoginFlowError(
            "mfa_required",
            `the site asked for a ${question.reason} a person would answer, but ${waiting} of this organization's jobs wait for a person already (the most at once)`,
            { retryable: false },
          );
        }
        expiresAt = Date.now() + deps.maxWaitMs;
        // The hosted page's live view, from the first question until the flow ends.
        if (page) {
          // What the service typed is drawn masked: the username, and the password even if shown as text.
          const typed = [job.credential.username, job.input.password ?? ""];
          live = startLiveView(deps.relay, job.id, page, deps.log, typed, () => open).catch((err: unknown) => {
            deps.log.warn({ jobId: job.id, err: String(err) }, "live view not started");
            return null;
          });
        }
      }
      tries++;
      // Subscribed before the question is recorded: an answer given at once still wakes this wait.
      const watch = await deps.events.watchJobInput(job.id);
      const stopped = new Promise<void>((resolve) => {
        deps.stopping.addEventListener("abort", () => resolve(), { once: true });
        withdraw?.addEventListener("abort", () => resolve(), { once: true });
      });
      // While the question is open the person drives the page: it stays on the site and where the flow is.
      if (page) setPersonScope(page, [job.loginUrl, page.url()]);
      try {
        const input = await deps.jobs.askInput(job, {
          ...question,
          expiresAt: new Date(expiresAt).toISOString(),
          tries,
        });
        open = true;
        hooks.onProgress("needs_input", { input });
        hooks.onAsked();
        for (;;) {
          const answer = await deps.jobs.takeInput(job);
          if (answer) {
            hooks.onProgress("verifying");
            return answer;
          }
          if (withdraw?.aborted) {
            // The page went on without the answer (approved on the phone): no one is asked any more.
            await deps.jobs.clearInput(job).catch(() => undefined);
            hooks.onProgress("verifying");
            throw new Error("the question was withdrawn");
          }
          const left = expiresAt - Date.now();
          if (left <= 0 || deps.stopping.aborted) {
            await deps.jobs.clearInput(job).catch(() => undefined);
            if (deps.stopping.aborted) throw interrupted();
            throw new LoginFlowError(
              "input_timeout",
              `no one answered the site's ${question.reason} step within ${Math.round(deps.maxWaitMs / 1000)} s`,
              { retryable: false },
            );
          }
          await Promise.race([watch.next(Math.min(left, RECHECK_MS)), stopped]);
        }
      } finally {
        open = false;
        if (page) setPersonScope(page, null);
        await watch.close();
      }
    },
  };
}
