import { ERROR_CODES, type ErrorCode } from "../error-codes";
import { ERROR_DESCRIPTIONS } from "../error-descriptions";
import { LOGIN_FAILURE_CODES } from "../job-failure-codes";
import { generatedHeader } from "./generated-header";

// The error table's copies outside this package: the SDK's and the Python client's (both published on
// their own, so they carry the table, not an import of it), and the table in docs/errors.md.

const SOURCE = "packages/contracts/src/error-codes.ts";
const codes = Object.keys(ERROR_CODES) as ErrorCode[];

export function sdkErrorCodes(): string {
  return `${generatedHeader("//", SOURCE)}

/**
 * Every code the API answers with, and its HTTP status: a failed job's error carries only the code, and a
 * caller of the SDK gets the same exception from it as from the synchronous answer.
 */
export const ERROR_STATUS = {
${codes.map((c) => `  ${c}: ${ERROR_CODES[c].status},`).join("\n")}
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.prototype.hasOwnProperty.call(ERROR_STATUS, code);
}
`;
}

export function pythonErrorCodes(): string {
  return `${generatedHeader("#", SOURCE)}
"""The API's error codes: the HTTP status of each, and those a browser job can end with."""

from __future__ import annotations

from typing import Dict, FrozenSet

# A job's failure carries only its code; this gives it the status the synchronous answer would have had.
ERROR_STATUS: Dict[str, int] = {
${codes.map((c) => `    "${c}": ${ERROR_CODES[c].status},`).join("\n")}
}

# Codes a login or signup job can end with.
JOB_FAILURE_CODES: FrozenSet[str] = frozenset(
    {
${LOGIN_FAILURE_CODES.map((c) => `        "${c}",`).join("\n")}
    }
)
`;
}

const DOC_BEGIN = "<!-- error table: begin -->";
const DOC_END = "<!-- error table: end -->";

/** docs/errors.md with its table (between the markers) made from the error table, by status. */
export function errorsDoc(current: string): string {
  const begin = current.indexOf(DOC_BEGIN);
  const end = current.indexOf(DOC_END);
  if (begin < 0 || end < begin) throw new Error(`docs/errors.md has lost its markers ${DOC_BEGIN} … ${DOC_END}`);
  const byStatus = [...codes].sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status);
  const rows = byStatus.map((c) => {
    const { explained, retry } = ERROR_DESCRIPTIONS[c];
    return `| \`${c}\` | ${ERROR_CODES[c].status} | ${explained} | ${retry} |`;
  });
  const table = [
    DOC_BEGIN,
    generatedHeader("<!--", `${SOURCE} and error-descriptions.ts`),
    "",
    "| code | HTTP | meaning | retry? |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
  return current.slice(0, begin) + table + current.slice(end);
}
