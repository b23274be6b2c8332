import { Type, type Static, type TSchema, type TUnsafe } from "@sinclair/typebox";

/**
 * A value or null, written as the OpenAPI document has it: `type: [t, "null"]` (TypeBox's Union writes
 * `anyOf`, a different document and other ajv errors). Only for schemas of one `type`; an `enum` gains null.
 */
export function nullable<T extends TSchema>(
  schema: T,
  options: { description?: string } = {},
): TUnsafe<Static<T> | null> {
  if (typeof schema.type !== "string") throw new Error(`nullable: a schema of one type, not ${JSON.stringify(schema)}`);
  const enumWithNull = Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {};
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, "null"], ...enumWithNull, ...options });
}
