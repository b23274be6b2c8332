import type { LoginFailureCode } from "@authsvc/contracts";
import type { SelectorPath } from "../../page/read-page";

/** Where the signed-in page showed its sign-out control or account menu; learned flows keep it. */
export interface SignedInMarker {
  frame: string;
  path: SelectorPath;
}

export type Outcome =
  | { kind: "success"; marker: SignedInMarker | null }
  | { kind: "failure"; code: LoginFailureCode; message: string; codeAskedInForm?: string };

/** A person's approval being waited for: answered ("look again"), failed (no answer in time), or withdrawn. */
export interface PendingApproval {
  readonly answered: boolean;
  readonly failure: unknown;
  /** The page went on without the answer: the question is withdrawn. */
  cancel(): void;
}

/**
 * A step after the password only the account's person can take: a security question, a chooser, a "verify
 * it's you" field (the account's phone number, its recovery address), or the site's terms to accept.
 */
export type PersonStep = "question" | "chooser" | "verification" | "consent";

/** What a step the person answered came to: "declined" when they turned down the site's terms. */
export type StepAnswered = void | "declined";

export const samePath = (a: SignedInMarker | null, b: SignedInMarker | null) =>
  !!a && !!b && a.frame === b.frame && a.path.join("\u0000") === b.path.join("\u0000");
