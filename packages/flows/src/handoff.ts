import type { HandoffReason, InputField } from "@authsvc/contracts";

/** What a flow asks a person; never a secret. `prompt` is the site's own words. */
export interface HandoffQuestion {
  reason: HandoffReason;
  prompt: string;
  /** What the answer carries: `code`, `choice`, `answer`; [] when "look again" is the answer. */
  fields: InputField[];
  choices?: string[];
}

/** A person's answer: the code, the choice or the answer asked for (nothing: look again). */
export interface HandoffAnswer {
  code?: string;
  choice?: string;
  answer?: string;
}

/**
 * A person who can answer a step the service cannot (the caller sent `allowHandoff: true`). Asking puts the
 * job in `needs_input` with the flow's page kept open; the answer comes back here. The job's end is still
 * the flow's verdict on what the page shows, never what the person says. Throws LoginFlowError
 * `input_timeout` when no answer came in time, `handoff_interrupted` when the worker stops meanwhile.
 */
export interface Handoff {
  /** `withdraw`: aborted when the page went on without the answer (approved on the phone): the question is withdrawn. */
  ask(question: HandoffQuestion, withdraw?: AbortSignal): Promise<HandoffAnswer>;
}

/** How many codes a person may give one prompt in all: a refused one is asked again, with the site's words. */
export const HANDOFF_CODE_TRIES = 3;

/** The site's words of a step, short enough to show a person (collapsed white space, at most ~300 characters). */
export function promptOf(text: string): string {
  const words = text.replace(/\s+/g, " ").trim();
  return words.length <= 300 ? words : `${words.slice(0, 297).replace(/\s\S*$/, "")}…`;
}
