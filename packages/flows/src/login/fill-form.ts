import { LoginFlowError } from "../flow-error";
import type { SelectorPath } from "../page/read-page";
import type { FrameScan } from "../page/scan-page";
import { fieldKeeps, type FlowStep, performStep } from "../page/steps";
import { describeStep } from "./learned-flow";
import type { LoginRun } from "./login-run";

// How many times fields a page script emptied or rewrote are typed again before the form goes out.
const REFILLS = 2;

/**
 * Fills the login form `login` shows (the username, the additional fields, wherever in `scans` they are,
 * "remember me", the password, a code beside it) and sends it; throws when it could not go out.
 */
export async function fillAndSubmit(run: LoginRun, login: FrameScan, scans: FrameScan[]): Promise<void> {
  const { key, reading } = login;
  const from = run.steps.length;
  await typeIdentifier(run, login);
  for (const name of run.extraKeys) {
    const where = [login, ...scans].find((s) => s.reading.extras[name]);
    if (!where) {
      run.step(`additional field not on the page: ${name}`);
      continue;
    }
    await run.perform(
      { action: "extra", key: name, frame: where.key, path: where.reading.extras[name]! },
      `fill additional field ${name}`,
    );
  }
  if (reading.remember)
    await run.perform({ action: "check", purpose: "remember", frame: key, path: reading.remember }, "tick remember me");
  if (reading.password)
    await run.perform({ action: "type", value: "password", frame: key, path: reading.password }, "type password");
  // A code field in the same form: the authenticator's code goes with the password (an optional one stays
  // empty without a TOTP secret; a site that wants it says so, and that is mfa_required).
  if (reading.codeBeside && run.values.code)
    await run.perform({ action: "type", value: "code", frame: key, path: reading.codeBeside }, "type one-time code");
  await ensureFilled(run, from);
  if (!(await run.send("submit", key, reading.submit, reading.password ?? reading.identifier!))) {
    throw new LoginFlowError("form_not_found", "the login form went away before it could be submitted");
  }
}

/** Types the username into the field `scan` shows for it, unless the page filled it already. */
export async function typeIdentifier(run: LoginRun, { key, reading }: FrameScan): Promise<void> {
  if (reading.identifier && !reading.identifierFilled)
    await run.perform({ action: "type", value: "identifier", frame: key, path: reading.identifier }, "type identifier");
}

/**
 * Before the form goes out: every field typed since step `from` (this form's steps) still holds what was
 * typed. A page script that moved the focus while the keys went out (the rest of the password landed in
 * the username field), or that cleared or rewrote a field, has it typed again; a form that will not keep
 * its values is not sent (a site would answer "the password field is empty", read as a wrong password).
 */
export async function ensureFilled(run: LoginRun, from: number): Promise<void> {
  const typed = new Map<string, FlowStep>();
  for (const step of run.steps.slice(from))
    if (run.typedText(step) !== null) typed.set(`${step.frame} ${JSON.stringify(step.path)}`, step);
  for (let round = 0; typed.size > 0; round++) {
    const lost: FlowStep[] = [];
    for (const step of typed.values()) {
      if ((await fieldKeeps(run.page, step as { frame: string; path: SelectorPath }, run.typedText(step)!)) === false)
        lost.push(step);
    }
    if (lost.length === 0) return;
    const names = lost.map(describeStep).join(", ");
    if (round >= REFILLS)
      throw new LoginFlowError(
        "form_not_found",
        `the login form did not keep what was typed in it (${names}); nothing was sent`,
      );
    run.step(`the page changed what was typed (${names}); typing it again`);
    for (const step of lost) await performStep(run.page, step, run.values);
  }
}
