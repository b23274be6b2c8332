import { Type, type Static, type TSchema, type TUnsafe } from "@sinclair/typebox";

/**
 * Where the OpenAPI document names a schema of its components rather than repeating it: `{$ref}` in JSON,
 * the schema's Static type in TypeScript; the client type generators give it the component's type name. A
 * `description` beside the `$ref` says what the part is here.
 */
export const componentRef = <T extends TSchema>(
  component: string,
  _schema: T,
  options: { description?: string } = {},
): TUnsafe<Static<T>> => Type.Unsafe<Static<T>>({ $ref: `#/components/schemas/${component}`, ...options });

/**
 * The schema the client type generators read where the API's JSON Schema says less than its type (a part
 * the service answers but never checks). A symbol key: JSON, ajv and the OpenAPI document never see it.
 */
export const PRECISE_SCHEMA = Symbol.for("authsvc.contracts.preciseSchema");

/** `json` for the OpenAPI document and ajv; `precise`'s type for TypeScript and the generated clients. */
export const describedLoosely = <T extends TSchema>(precise: T, json: object): TUnsafe<Static<T>> =>
  Object.assign(Type.Unsafe<Static<T>>(json), { [PRECISE_SCHEMA]: precise });
