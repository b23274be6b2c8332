import { FORM_WAIT_MS } from "../page/form-search";
import { frameChange } from "../page/page-change";
import { type FlowStep, submitsPassword } from "../page/steps";
import { ensureFilled } from "./fill-form";
import { describeStep, type LearnedFlow } from "./learned-flow";
import type { LoginRun } from "./login-run";
import { firstStepShown, refusedUsername, sentencesNow } from "./username-first";

// A learned step's element may take this long to appear (the first one: as long as a form may take).
const REPLAY_STEP_WAIT_MS = 3000;

/**
 * Replays a learned flow step by step, each as soon as its element is there. Returns whether the
 * password was submitted; false means the page changed and detection must take over from here.
 */
export async function replayFlow(run: LoginRun, flow: LearnedFlow): Promise<boolean> {
  let beforeNext: Set<string> | null = null;
  for (const [i, step] of flow.steps.entries()) {
    const waitUntil = Date.now() + Math.min(i === 0 ? FORM_WAIT_MS : REPLAY_STEP_WAIT_MS, run.deadline.remaining());
    if (submitsPassword(step)) {
      // This form's fields: those typed since the last step that sent a form on (a username-first step).
      const lastNext = run.steps.map((s) => sendsStep(s)).lastIndexOf(true);
      await ensureFilled(run, lastNext + 1);
      const typed = flow.steps.find((s) => s.action === "type" && s.value === "password");
      if ((await run.passCaptcha(step, typed ? { frame: typed.frame, path: typed.path } : null)) === "sent")
        return true;
    }
    if (sendsStep(step)) beforeNext = await sentencesNow(run.page);
    for (;;) {
      if (submitsPassword(step)) {
        // A fault once the password may have gone out is not a reason to try again by detection.
        if (await run.perform(step, `replay: ${describeStep(step)}`)) return true;
      } else {
        // Before the submit, any fault only means the page is not what the flow knew.
        const done = await run.perform(step, `replay: ${describeStep(step)}`).catch(() => false);
        if (done) break;
      }
      // The next step is not there, the first one is again: the site may have refused the username.
      if (beforeNext && !sendsStep(step) && (await firstStepShown(run))) await refusedUsername(run.page, beforeNext);
      if (Date.now() >= waitUntil) return false;
      await frameChange(run.page, step.frame, 100);
    }
  }
  return false;
}

/** A step that sends the username on (Next, Continue), after which the site answers before the password. */
const sendsStep = (step: FlowStep) => (step.action === "click" || step.action === "enter") && step.purpose === "next";
