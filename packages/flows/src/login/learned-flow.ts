import type { SignedInMarker } from "./classify-outcome";
import { type FlowStep, STEP_PURPOSES } from "../page/steps";

/**
 * What a successful login on a site did: the steps up to and including the submit, and where the signed-in
 * page showed itself. Selectors and frame names only, never a value, so it can be stored in the clear.
 */
export interface LearnedFlow {
  version: 1;
  steps: FlowStep[];
  signedIn: SignedInMarker | null;
}

const isPath = (p: unknown): p is string[] =>
  Array.isArray(p) && p.length > 0 && p.every((s) => typeof s === "string" && s.length < 2000);
const among = (list: readonly string[], value: unknown) => list.includes(value as string);
// Every step a login records may be stored (a way-to-sign-in choice too: "Try another way", then "Enter your
// password"). A CAPTCHA's box is answered afresh on each visit and never recorded.
const ACTIONS: Record<FlowStep["action"], (s: Record<string, unknown>) => boolean> = {
  click: (s) => among(STEP_PURPOSES.click, s.purpose) && s.purpose !== "captcha",
  type: (s) => among(STEP_PURPOSES.type, s.value),
  enter: (s) => among(STEP_PURPOSES.enter, s.purpose),
  extra: (s) => typeof s.key === "string",
  check: (s) => among(STEP_PURPOSES.check, s.purpose),
};

/**
 * A stored flow as the engine may use it, or null when it is not one (written by an older version, or
 * damaged): the login then detects the form as if nothing had been learned.
 */
export function parseLearnedFlow(raw: unknown): LearnedFlow | null {
  if (typeof raw !== "object" || raw === null) return null;
  const flow = raw as Record<string, unknown>;
  if (flow.version !== 1 || !Array.isArray(flow.steps) || flow.steps.length === 0 || flow.steps.length > 50)
    return null;
  for (const step of flow.steps as Array<Record<string, unknown>>) {
    if (typeof step !== "object" || step === null || typeof step.frame !== "string" || !isPath(step.path)) return null;
    const valid = ACTIONS[step.action as FlowStep["action"]];
    if (!valid?.(step)) return null;
  }
  const marker = flow.signedIn as Record<string, unknown> | null | undefined;
  if (marker != null && (typeof marker.frame !== "string" || !isPath(marker.path))) return null;
  return {
    version: 1,
    steps: flow.steps as FlowStep[],
    signedIn: (marker as SignedInMarker | null | undefined) ?? null,
  };
}

/** The `additionalFields` keys a flow fills; a request with other keys is detected afresh. */
export function extraKeysOf(flow: LearnedFlow): string[] {
  return flow.steps.flatMap((s) => (s.action === "extra" ? [s.key] : [])).sort();
}

export function sameFlow(a: LearnedFlow, b: LearnedFlow): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A flow is stored in the clear, so it must hold no secret: a selector or frame name that contains the
 * username or the password (an id like "#avatar-ada") loses the marker, or the whole flow.
 */
export function keepable(flow: LearnedFlow, identifier: string, password: string): LearnedFlow | null {
  const secrets = [identifier, password].filter((v) => v.length >= 3).map((v) => v.toLowerCase());
  const holds = (value: unknown) => secrets.some((secret) => JSON.stringify(value).toLowerCase().includes(secret));
  if (holds(flow.steps)) return null;
  return holds(flow.signedIn) ? { ...flow, signedIn: null } : flow;
}

/** A step as the step log names it. */
export function describeStep(step: FlowStep): string {
  switch (step.action) {
    case "click":
      return `click ${step.purpose}`;
    case "type":
      return `type ${step.value}`;
    case "enter":
      return `press Enter (${step.purpose})`;
    case "extra":
      return `fill additional field ${step.key}`;
    case "check":
      return "tick remember me";
  }
}
