import { refreshRequestSchema, verifyRequestSchema } from "../credentials";
import { LOGIN_METHODS, loginCredSchema, loginRequestSchema } from "../login-request";
import { SIGNUP_METHODS, signupCredSchema, signupRequestSchema } from "../signup-request";
import { generatedHeader } from "./generated-header";
import { pythonDeclarations } from "./python-types";
import type { NamedType } from "./schema-walk";
import { typescriptDeclarations } from "./typescript-types";

// The API's request and answer shapes, from their TypeBox schemas, as the clients' own types: the SDK's
// (published without the contracts) and the Python client's TypedDicts. In the order they are declared.

const API_TYPES: readonly NamedType[] = [
  { name: "LoginMethod", words: LOGIN_METHODS, list: "LOGIN_METHODS" },
  { name: "LoginCred", schema: loginCredSchema },
  { name: "LoginRequest", schema: loginRequestSchema },
  { name: "SignupMethod", words: SIGNUP_METHODS, list: "SIGNUP_METHODS" },
  { name: "SignupCred", schema: signupCredSchema },
  { name: "SignupRequest", schema: signupRequestSchema },
  { name: "RefreshRequest", schema: refreshRequestSchema },
  { name: "VerifyRequest", schema: verifyRequestSchema },
];

const SOURCE = "the TypeBox schemas of packages/contracts/src";

export function sdkApiTypes(): string {
  return `${generatedHeader("//", SOURCE)}\n\n${typescriptDeclarations(API_TYPES)}`;
}

export function pythonApiTypes(): string {
  const body = pythonDeclarations(API_TYPES);
  const used = ["Any", "Dict", "List", "Literal", "TypedDict", "Union"].filter((n) =>
    new RegExp(`\\b${n}\\b`).test(body),
  );
  return `${generatedHeader("#", SOURCE)}
"""The API's request shapes as TypedDicts: what the client sends, field for field."""

from __future__ import annotations

from typing import ${used.join(", ")}


${body}`;
}
