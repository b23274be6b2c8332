/**
 * The hand-off to a person: a job whose caller allowed it (`allowHandoff: true`) and that meets a step the
 * service cannot answer alone waits in `needs_input` for `POST /v1/jobs/{jobId}/input`, keeping its page.
 */
import { Type, type Static } from "@sinclair/typebox";

/**
 * Why a job waits for a person: `code`, a one-time code the request gave no way to read (an authenticator
 * without `totpSecret`, a code sent to a number or address that is not ours); `approval`, a sign-in to
 * approve on another device (a push to a phone), which the page notices by itself; `captcha`, a challenge only
 * a person can solve; `answer`, a security question; `choice`, an account or organization chooser;
 * `verification`, a "verify it's you" step (a detail of the account to type, or something done elsewhere);
 * `consent`, the site's terms to accept or decline.
 */
export const HANDOFF_REASONS = ["code", "approval", "captcha", "choice", "answer", "verification", "consent"] as const;
export type HandoffReason = (typeof HANDOFF_REASONS)[number];

/** What a job in `needs_input` asks; never a secret. */
export interface InputRequest {
  reason: HandoffReason;
  /** The site's own words at that step (the code prompt; after a refused code, the site's refusal). */
  prompt: string;
  /** What the answer may carry: `code`, `choice`, `answer`; [] when `{}` ("look again") is the answer. */
  fields: string[];
  /** The choices offered, for a chooser or the site's terms (`consent`). */
  choices?: string[];
  /** When the hand-off ends unanswered (`input_timeout`). */
  expiresAt: string;
  /**
   * The hosted hand-off page (no API key needed): a live view of the browser tab the person can use, for
   * what the API cannot carry (an image challenge, a step of their own). Absent when the service does not
   * know its dashboard's public address (DASHBOARD_URL).
   */
  handoffUrl?: string;
}

/** POST /v1/jobs/{jobId}/input: a code, a choice, an answer, or `{}` (approved elsewhere: look again). */
export const inputAnswerSchema = Type.Object(
  {
    code: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: "^[0-9A-Za-z -]+$",
        description: "The one-time code, as the person read it (spaces and dashes are left out when typed).",
      }),
    ),
    choice: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "One of `input.choices`." })),
    answer: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1024, description: "The answer to a question the site asked." }),
    ),
  },
  { $id: "InputAnswer", additionalProperties: false, maxProperties: 1 },
);
export type InputAnswerRequest = Static<typeof inputAnswerSchema>;
