import { captureState, guardRequests, type Page, type TargetGuard } from "@authsvc/browser";
import type { SessionResponse } from "@authsvc/contracts";
import { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { detectLoginForm } from "./detect-login-form";
import { fillAdditionalFields, fillLoginForm, submitLoginForm } from "./fill-login-form";
import { classifyOutcome, readSessionState } from "./classify-outcome";

export interface PasswordLoginInput {
  loginUrl: string;
  identifier: string;
  password: string;
  additionalFields?: Record<string, string | number | boolean>;
}

export interface FlowOptions {
  guard: TargetGuard;
  timeoutMs: number;
  /** Called with each step's name, for logs and the try-login command; never with a secret. */
  onStep?: (step: string) => void;
  /** Awaited just before the password is submitted, so the caller can record that it was. */
  beforeSubmit?: () => Promise<void>;
}

function navigationFailure(err: unknown): LoginFlowError {
  const message = err instanceof Error ? err.message : String(err);
  if (/timeout/i.test(message)) return new LoginFlowError("timeout", "the login page did not load in time");
  return new LoginFlowError("target_unreachable", `the login page could not be loaded (${message.split("\n")[0]})`);
}

/**
 * Logs in with a username (or email) and password on a page nobody scripted: open the page, find the form,
 * type, submit, and read the verdict off the page. `page` must be fresh, in a context of its own.
 * Returns the whole browser state on success.
 */
export async function passwordLogin(page: Page, input: PasswordLoginInput, options: FlowOptions): Promise<SessionResponse> {
  const deadline = new Deadline(options.timeoutMs);
  const step = options.onStep ?? (() => undefined);
  const context = page.browserContext();
  let refused: LoginFlowError | null = null;
  await guardRequests(page, options.guard, (url, verdict) => {
    refused = new LoginFlowError(verdict.code, `${new URL(url).host}: ${verdict.reason}`);
  });
  const visited = new Set<string>([new URL(input.loginUrl).origin]);
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame() && /^https?:/.test(frame.url())) visited.add(new URL(frame.url()).origin);
  });

  step("open login page");
  let response;
  try {
    response = await page.goto(input.loginUrl, { waitUntil: "domcontentloaded", timeout: deadline.remaining() });
  } catch (err) {
    throw refused ?? navigationFailure(err);
  }
  if (refused) throw refused;
  if (response && response.status() >= 500) {
    throw new LoginFlowError("target_unreachable", `the login page answered HTTP ${response.status()}`);
  }

  step("find login form");
  const form = await detectLoginForm(page, deadline);
  if (!form) {
    deadline.check("looking for the login form");
    throw new LoginFlowError("form_not_found", "no username and password form was found on the page");
  }

  step("fill login form");
  if (input.additionalFields) {
    const missing = await fillAdditionalFields(page, input.additionalFields);
    if (missing.length) step(`additional fields not on the page: ${missing.join(", ")}`);
  }
  await fillLoginForm(form, input.identifier, input.password);
  const before = await readSessionState(context, page);

  step("submit");
  await options.beforeSubmit?.();
  await submitLoginForm(form);

  step("read verdict");
  const outcome = await classifyOutcome(context, page, before, deadline);
  if (refused) throw refused;
  if (outcome.kind === "failure") throw new LoginFlowError(outcome.code, outcome.message);

  step("capture session");
  return captureState(context, page, visited);
}
