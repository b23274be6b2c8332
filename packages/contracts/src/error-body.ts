import { Type, type Static } from "@sinclair/typebox";
import { ERROR_CODES, type ErrorCode } from "./error-codes";
import { stringEnum } from "./string-enum";

/** What is wrong with one field: `field` is a JSON pointer into the request body, e.g. `/cred/password`. */
export const fieldErrorSchema = Type.Object({ field: Type.String(), message: Type.String() });
export type FieldError = Static<typeof fieldErrorSchema>;

/** Every failure's answer: the stable `code` to branch on, a message, and the request's id. */
export const errorBodySchema = Type.Object({
  error: Type.Object({
    code: stringEnum(Object.keys(ERROR_CODES) as ErrorCode[]),
    message: Type.String(),
    requestId: Type.String({ pattern: "^req_" }),
    credentialId: Type.Optional(
      Type.String({
        pattern: "^cred_",
        description:
          "A signup that failed after its form was sent: the stored credential that keeps the account and its password.",
      }),
    ),
    details: Type.Optional(Type.Array(fieldErrorSchema)),
  }),
});
export type ErrorBody = Static<typeof errorBodySchema>;
