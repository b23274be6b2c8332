import { Type, type Static, type TSchema, type TUnsafe } from "@sinclair/typebox";

/**
 * A value or null, written as the OpenAPI document has it: `type: [t, "null"]` (TypeBox's Union writes
 * `anyOf`, a different document and other ajv errors). Only for schemas of one `type`.
 */
export const nullable = <T extends TSchema & { type: string }>(schema: T): TUnsafe<Static<T> | null> =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, "null"] });
