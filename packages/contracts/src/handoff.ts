/**
 * The hand-off to a person: a job whose caller allowed it (`allowHandoff: true`) and that meets a step the
 * service cannot answer alone waits in `needs_input` for `POST /v1/jobs/{jobId}/input`, keeping its page.
 */
import { Type, type Static } from "@sinclair/typebox";
import { stringEnum } from "./string-enum";

/** Why a job waits for a person: each is told in inputRequestSchema's `reason`. */
export const HANDOFF_REASONS = ["code", "approval", "captcha", "choice", "answer", "verification", "consent"] as const;
export type HandoffReason = (typeof HANDOFF_REASONS)[number];

/** What an answer carries: a code, one of the choices, or the answer to a question. */
export const INPUT_FIELDS = ["code", "choice", "answer"] as const;
export type InputField = (typeof INPUT_FIELDS)[number];

/** What a job in `needs_input` asks a person; never a secret. */
export const inputRequestSchema = Type.Object({
  reason: stringEnum(HANDOFF_REASONS, {
    description:
      "`code`: a one-time code the request gave no way to read (an authenticator without `totpSecret`, a code sent to a number or address that is not ours). " +
      "`approval`: a sign-in to approve on another device (a push to a phone); the page goes on by itself once approved, and the question is withdrawn. " +
      "`captcha`: a challenge only a person can solve (an image of distorted characters, a picture puzzle): solved on the hand-off page, whose live view " +
      "they click and type in; they may send the form there themselves. `{}` says it is solved: the page is looked at again. " +
      "`answer`: a security question; `{answer}` is typed and sent. `choice`: a chooser of the account or organization to go on as; `{choice}` is one of `choices`. " +
      '`verification`: a "verify it\'s you" step (a new device, an unusual sign-in): with `fields: ["answer"]` the detail it asks (the account\'s phone number, its recovery address) is typed and sent; ' +
      "with `fields: []` it waits for something done elsewhere (a link mailed to the person): `{}` once done, and the page is loaded again. " +
      '`consent`: the site holds the sign-in until its terms are accepted; `choices` are the page\'s answers ("Accept and continue", "Decline"), and only the person decides: declined terms that keep the account out end `consent_denied`.',
  }),
  prompt: Type.String({
    description: "The site's own words at that step; after a refused answer, the site's refusal.",
  }),
  fields: Type.Array(stringEnum(INPUT_FIELDS), {
    description: "What the answer carries; [] when `{}` (look again) is the answer.",
  }),
  choices: Type.Optional(
    Type.Array(Type.String(), { description: "The choices offered, for a chooser or the site's terms (`consent`)." }),
  ),
  expiresAt: Type.String({
    format: "date-time",
    description: "When the hand-off ends unanswered: the job then fails with `input_timeout`.",
  }),
  handoffUrl: Type.Optional(
    Type.String({
      format: "uri",
      description:
        "The hosted hand-off page, for the person (no API key, no account): the organization, the site's origin, a live view of the browser tab they can click and type in, and a status line. Good while the job waits; 410 once it ended. Absent when the service has no DASHBOARD_URL.",
    }),
  ),
});
export type InputRequest = Static<typeof inputRequestSchema>;

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
