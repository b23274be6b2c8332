import {
  branchOf,
  extensionOf,
  isAnything,
  mapValuesOf,
  nameOf,
  propertiesOf,
  shapeOf,
  unsupported,
  type JsonSchema,
  type NamedType,
  type TypeParameter,
} from "./schema-walk";

// The API's named types as TypeScript source, for the SDK (published without the contracts).

function typeOf(schema: JsonSchema, named: readonly NamedType[], indent: string, self?: string): string {
  const name = nameOf(schema, named, self);
  if (name) return name;
  if (shapeOf(schema) !== schema) return typeOf(shapeOf(schema), named, indent, self);
  if (Array.isArray(schema.type))
    return schema.type.map((type) => typeOf(branchOf(schema, type), named, indent)).join(" | ");
  if (isAnything(schema)) return "unknown";
  if (schema.enum) return schema.enum.map((w) => JSON.stringify(w)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) return schema.anyOf.map((s) => typeOf(s, named, indent)).join(" | ");
  const values = mapValuesOf(schema);
  if (values) return `Record<string, ${typeOf(values, named, indent)}>`;
  switch (schema.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `Array<${typeOf(schema.items ?? unsupported(schema), named, indent)}>`;
    case "object":
      return `{\n${members(schema, named, `${indent}  `)}${indent}}`;
  }
  return unsupported(schema);
}

function docComment(text: string | undefined, indent: string): string {
  return text ? `${indent}/** ${text.replaceAll("*/", "*\\/")} */\n` : "";
}

function members(
  schema: JsonSchema,
  named: readonly NamedType[],
  indent: string,
  self?: string,
  parameter?: TypeParameter,
): string {
  return propertiesOf(schema)
    .map((p) => {
      const type = p.name === parameter?.property ? parameter.name : typeOf(p.schema, named, indent, self);
      return `${docComment(p.schema.description, indent)}${indent}${p.name}${p.optional ? "?" : ""}: ${type};\n`;
    })
    .join("");
}

/** Each named type as an exported declaration: an interface, or a list of words and its union. */
export function typescriptDeclarations(named: readonly NamedType[]): string {
  return named
    .map((n) => {
      if ("declaredIn" in n) return "";
      if ("words" in n) {
        const words = n.words.map((w) => `  ${JSON.stringify(w)},\n`).join("");
        return `export const ${n.list} = [\n${words}] as const;\nexport type ${n.name} = (typeof ${n.list})[number];\n`;
      }
      const schema = n.schema as JsonSchema;
      const doc = docComment(n.doc ?? schema.description, "");
      // One of several shapes: an alias of their union.
      if (shapeOf(schema).anyOf)
        return `${doc}export type ${n.name} = ${typeOf(shapeOf(schema), named, "", n.name)};\n`;
      const extension = extensionOf(schema, named);
      if (extension)
        return `${doc}export interface ${n.name} extends ${extension.base} {\n${members(extension.own, named, "  ", n.name)}}\n`;
      const parameter = n.typeParameter;
      const generic = parameter ? `<${parameter.name} = ${parameter.default}>` : "";
      return `${doc}export interface ${n.name}${generic} {\n${members(schema, named, "  ", n.name, parameter)}}\n`;
    })
    .filter(Boolean)
    .join("\n");
}

/** The imports of the named types declared elsewhere. */
export function typescriptImports(named: readonly NamedType[]): string {
  return named
    .flatMap((n) => ("declaredIn" in n ? [`import type { ${n.name} } from "${n.declaredIn}";\n`] : []))
    .join("");
}
