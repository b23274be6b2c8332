import { Type, type SchemaOptions } from "@sinclair/typebox";

/**
 * One of these words: `{type: "string", enum}` in JSON Schema, their union as the TypeScript type.
 * (TypeBox's own Union of Literals writes `anyOf` of consts, which ajv answers branch by branch, where
 * `enum` gives one "must be one of" error.)
 */
export const stringEnum = <const T extends readonly string[]>(values: T, options: SchemaOptions = {}) =>
  Type.Unsafe<T[number]>({ type: "string", enum: values, ...options });
