import type { Static, TSchema } from "@sinclair/typebox";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { FieldError } from "./error-body";

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv, ["uri", "email"]);

/** Turns ajv's errors into `{field, message}` pairs a caller can act on. */
export function toFieldErrors(errors: readonly ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors ?? []) {
    if (e.keyword === "anyOf") continue; // its branches already say what was wrong
    const at = e.instancePath || "";
    if (e.keyword === "required") {
      out.push({ field: `${at}/${e.params.missingProperty}`, message: "is required" });
    } else if (e.keyword === "additionalProperties") {
      out.push({ field: `${at}/${e.params.additionalProperty}`, message: "is not a known field" });
    } else if (e.keyword === "enum") {
      out.push({ field: at, message: `must be one of: ${(e.params.allowedValues as string[]).join(", ")}` });
    } else if (e.keyword === "pattern" && at === "/domain") {
      out.push({ field: at, message: "must be an http or https URL" });
    } else {
      out.push({ field: at || "/", message: e.message ?? "is invalid" });
    }
  }
  const seen = new Set<string>();
  return out.filter((f) => !seen.has(f.field + f.message) && seen.add(f.field + f.message));
}

export type Validator<T> = (value: unknown) => { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** A validator of a TypeBox schema: what it lets through has the schema's own type. */
export function compileValidator<S extends TSchema>(schema: S): Validator<Static<S>>;
/** A schema not (yet) written with TypeBox: the caller names the type it stands for. */
export function compileValidator<T>(schema: object): Validator<T>;
export function compileValidator<T>(schema: object): Validator<T> {
  const fn: ValidateFunction = ajv.compile(schema);
  return (value) => (fn(value) ? { ok: true, value: value as T } : { ok: false, errors: toFieldErrors(fn.errors) });
}
