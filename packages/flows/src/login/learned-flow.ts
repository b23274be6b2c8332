import type { SignedInMarker } from "./classify-outcome";
import type { FlowStep } from "../page/steps";

/**
 * What a successful login on a site did: the steps up to and including the submit, and where the signed-in
 * page showed itself. Selectors and frame names only, never a value, so it can be stored in the clear.
 */
export interface LearnedFlow {
  version: 1;
  steps: FlowStep[];
  signedIn: SignedInMarker | null;
}

const isPath = (p: unknown): p is string[] => Array.isArray(p) && p.length > 0 && p.every((s) => typeof s === "string" && s.length < 2000);
const ACTIONS: Record<FlowStep["action"], (s: Record<string, unknown>) => boolean> = {
  click: (s) => ["consent", "opener", "next", "submit"].includes(s.purpose as string),
  type: (s) => s.value === "identifier" || s.value === "password",
  enter: (s) => s.purpose === "next" || s.purpose === "submit",
  extra: (s) => typeof s.key === "string",
  check: (s) => s.purpose === "remember",
};

/**
 * A stored flow as the engine may use it, or null when it is not one (written by an older version, or
 * damaged): the login then detects the form as if nothing had been learned.
 */
export function parseLearnedFlow(raw: unknown): LearnedFlow | null {
  if (typeof raw !== "object" || raw === null) return null;
  const flow = raw as Record<string, unknown>;
  if (flow.version !== 1 || !Array.isArray(flow.steps) || flow.steps.length === 0 || flow.steps.length > 50) return null;
  for (const step of flow.steps as Array<Record<string, unknown>>) {
    if (typeof step !== "object" || step === null || typeof step.frame !== "string" || !isPath(step.path)) return null;
    const valid = ACTIONS[step.action as FlowStep["action"]];
    if (!valid?.(step)) return null;
  }
  const marker = flow.signedIn as Record<string, unknown> | null | undefined;
  if (marker != null && (typeof marker.frame !== "string" || !isPath(marker.path))) return null;
  return { version: 1, steps: flow.steps as FlowStep[], signedIn: (marker as SignedInMarker | null | undefined) ?? null };
}

/** The `additionalFields` keys a flow fills; a request with other keys is detected afresh. */
export function extraKeysOf(flow: LearnedFlow): string[] {
  return flow.steps.flatMap((s) => (s.action === "extra" ? [s.key] : [])).sort();
}

export function sameFlow(a: LearnedFlow, b: LearnedFlow): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
