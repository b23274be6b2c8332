import type { FlowKind, JobInput } from "@authsvc/contracts";
import type { LoginSuccess, OpenedJob, SignupSuccess } from "@authsvc/jobs";
import { createBrowserRun, type BrowserRun, type FlowRunnerDeps, type RunHooks } from "./browser-run";
import { runLogin } from "./kinds/login";
import { runSignup } from "./kinds/signup";

export type { FlowHooks, FlowRunnerDeps, RunHooks } from "./browser-run";

/** A flow kind's module: runs a job whose input is of that kind in the browser run. */
type FlowModule<K extends FlowKind> = (
  run: BrowserRun,
  job: OpenedJob,
  input: Extract<JobInput, { kind: K }>,
  hooks: RunHooks,
) => Promise<LoginSuccess | SignupSuccess>;

/** The flow each kind of input runs: a verify and an enrolment are sign-ins with a step of their own. */
const FLOWS: { [K in FlowKind]: FlowModule<K> } = {
  login: runLogin,
  verify: runLogin,
  passkey_enrol: runLogin,
  signup: runSignup,
};

/** The flow of the input's kind, run with that input. */
function runFlow<K extends FlowKind>(
  run: BrowserRun,
  job: OpenedJob,
  input: Extract<JobInput, { kind: K }>,
  hooks: RunHooks,
): Promise<LoginSuccess | SignupSuccess> {
  const flow: FlowModule<K> = FLOWS[input.kind];
  return flow(run, job, input, hooks);
}

/**
 * Runs the flow an opened job asks for (a login, a verify's confirmation then login, a signup) in a fresh
 * page, and returns its outcome in the terms of `@authsvc/jobs`. Secrets stay in this process: TOTP codes
 * are made just in time from the decrypted secret.
 */
export function createFlowRunner(deps: FlowRunnerDeps) {
  const run = createBrowserRun(deps);
  return function runAuthFlow(job: OpenedJob, hooks: RunHooks): Promise<LoginSuccess | SignupSuccess> {
    // The origin only: the page's path or query may hold an invitation's token.
    hooks.onProgress("navigating", { origin: new URL(job.loginUrl).origin });
    return runFlow(run, job, job.input, hooks);
  };
}

export type FlowRunner = ReturnType<typeof createFlowRunner>;
