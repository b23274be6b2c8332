import { PRECISE_SCHEMA } from "../schema-refs";

/**
 * What the type generators need to know of a JSON Schema (TypeBox's output, read as plain JSON): which
 * named type a part is, and its pieces. Only the shapes the API's schemas use; anything else is an error
 * here rather than a wrong type in a client.
 */
export type JsonSchema = {
  type?: string | string[];
  enum?: readonly (string | null)[];
  const?: string | number | boolean;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  description?: string;
  $ref?: string;
  [PRECISE_SCHEMA]?: JsonSchema;
};

/**
 * Types the generated files name: an object schema (an interface, `doc` its comment), or a list of words
 * (a union), declared with its list or, in TypeScript, imported from the generated module `declaredIn`.
 * `typeParameter`: in TypeScript, the interface is generic, its `property` of the parameter's type (the
 * schema's type the default), for a caller that knows more than the API says (a signup job's result).
 */
export type NamedType =
  | { name: string; schema: object; doc?: string; component?: string; typeParameter?: TypeParameter }
  | { name: string; words: readonly string[]; list: string }
  | { name: string; words: readonly string[]; declaredIn: string };

export interface TypeParameter {
  name: string;
  default: string;
  property: string;
}

/** The named type a schema is, by its JSON (TypeBox's Optional copies a schema, so identity would miss). */
export function nameOf(schema: JsonSchema, named: readonly NamedType[], self?: string): string | undefined {
  // A `$ref` that says less than the type (a component wider than the part): the precise schema names it.
  if (schema.$ref && !schema[PRECISE_SCHEMA]) return nameOfComponent(schema.$ref, named) ?? unsupported(schema);
  const json = JSON.stringify(schema.enum ?? schema);
  for (const n of named) {
    if (n.name === self) continue;
    if ("words" in n ? schema.enum && JSON.stringify(n.words) === json : JSON.stringify(n.schema) === json)
      return n.name;
  }
  return undefined;
}

// `{$ref}` to a component of the OpenAPI document: the named type of that component (its own name unless
// `component` says otherwise).
function nameOfComponent(ref: string, named: readonly NamedType[]): string | undefined {
  const component = ref.replace("#/components/schemas/", "");
  return named.find((n) => "schema" in n && (n.component ?? n.name) === component)?.name;
}

/**
 * `allOf` of a named type and an object (TypeBox's Intersect): the named type it extends, and the object of
 * its own properties; an interface `extends` it in TypeScript, a TypedDict inherits it in Python.
 */
export function extensionOf(
  schema: JsonSchema,
  named: readonly NamedType[],
): { base: string; own: JsonSchema } | undefined {
  if (!schema.allOf) return undefined;
  const [base, own, ...more] = schema.allOf;
  const name = base && nameOf(base, named);
  if (!name || !own || own.type !== "object" || more.length) return unsupported(schema);
  return { base: name, own };
}

/** The schema a type is made of: the precise one where the API's JSON Schema says less. */
export function shapeOf(schema: JsonSchema): JsonSchema {
  return schema[PRECISE_SCHEMA] ?? schema;
}

/** One type of `type: [t, "null"]`: `t` with its words but null, or null. */
export function branchOf(schema: JsonSchema, type: string): JsonSchema {
  if (type === "null") return { type };
  return schema.enum ? { ...schema, type, enum: schema.enum.filter((w) => w !== null) } : { ...schema, type };
}

/** `{}`: any JSON value. */
export function isAnything(schema: JsonSchema): boolean {
  return Object.keys(schema).length === 0;
}

export interface Property {
  name: string;
  schema: JsonSchema;
  optional: boolean;
}

export function propertiesOf(schema: JsonSchema): Property[] {
  return Object.entries(schema.properties ?? {}).map(([name, p]) => ({
    name,
    schema: p,
    optional: !(schema.required ?? []).includes(name),
  }));
}

/** `{type: object}` with no properties and a schema for its values: a map from names to them. */
export function mapValuesOf(schema: JsonSchema): JsonSchema | undefined {
  return schema.type === "object" && !schema.properties && typeof schema.additionalProperties === "object"
    ? schema.additionalProperties
    : undefined;
}

export function unsupported(schema: JsonSchema): never {
  throw new Error(`no generated type for the schema ${JSON.stringify(schema)}`);
}
