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
} from "./schema-walk";

// The API's named types as Python TypedDicts (3.9: no NotRequired, so a dict with required and optional
// keys is a total base class of the required ones and a `total=False` class of the rest).

function typeOf(schema: JsonSchema, named: readonly NamedType[], self?: string): string {
  const name = nameOf(schema, named, self);
  if (name) return name;
  if (shapeOf(schema) !== schema) return typeOf(shapeOf(schema), named, self);
  if (Array.isArray(schema.type))
    return `Union[${schema.type.map((type) => typeOf(branchOf(schema, type), named)).join(", ")}]`;
  if (isAnything(schema)) return "Any";
  if (schema.const !== undefined) return `Literal[${JSON.stringify(schema.const)}]`;
  if (schema.enum) return `Literal[${schema.enum.map((w) => JSON.stringify(w)).join(", ")}]`;
  if (schema.anyOf) return `Union[${schema.anyOf.map((s) => typeOf(s, named)).join(", ")}]`;
  const values = mapValuesOf(schema);
  if (values) return `Dict[str, ${typeOf(values, named)}]`;
  switch (schema.type) {
    case "string":
      return "str";
    case "number":
      return "float";
    case "integer":
      return "int";
    case "boolean":
      return "bool";
    case "null":
      return "None";
    case "array":
      return `List[${typeOf(schema.items ?? unsupported(schema), named)}]`;
    case "object":
      return "Dict[str, Any]";
  }
  return unsupported(schema);
}

// Python's keywords: not names a class body can declare.
const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

function comment(text: string | undefined): string {
  return text ? `    # ${text}\n` : "";
}

// `base`: the TypedDict it inherits (its keys keep their own totality), TypedDict itself unless it extends one.
function typedDict(
  name: string,
  schema: JsonSchema,
  named: readonly NamedType[],
  docText?: string,
  base = "TypedDict",
): string {
  const props = propertiesOf(schema);
  const field = (p: (typeof props)[number]) =>
    `${comment(p.schema.description)}    ${p.name}: ${typeOf(p.schema, named, name)}\n`;
  const required = props.filter((p) => !p.optional);
  const optional = props.filter((p) => p.optional);
  const doc = docText ? `    """${docText}"""\n\n` : "";
  const keyword = (part: typeof props) => part.some((p) => KEYWORDS.has(p.name));
  if (!keyword(props)) {
    if (!optional.length) return `class ${name}(${base}):\n${doc}${required.map(field).join("")}`;
    if (!required.length) return `class ${name}(${base}, total=False):\n${doc}${optional.map(field).join("")}`;
    return (
      `class _${name}Required(${base}):\n${required.map(field).join("")}\n\n` +
      `class ${name}(_${name}Required, total=False):\n${doc}${optional.map(field).join("")}`
    );
  }
  // A key that is a Python keyword (`from`, `import`) cannot be a class attribute: the keys of its totality
  // are a TypedDict written as a call, which the class inherits.
  if (base !== "TypedDict") return unsupported(schema);
  const entry = (p: (typeof props)[number]) =>
    `${comment(p.schema.description).replace(/^ {4}/, "        ")}        "${p.name}": ${typeOf(p.schema, named, name)},\n`;
  const call = (part: typeof props, total: boolean) =>
    `_${name}${total ? "Required" : "Optional"} = TypedDict(\n    "_${name}${total ? "Required" : "Optional"}",\n    {\n${part.map(entry).join("")}    },\n${total ? "" : "    total=False,\n"})\n`;
  const parts: string[] = [];
  const bases: string[] = [];
  if (required.length) {
    parts.push(
      keyword(required) ? call(required, true) : `class _${name}Required(TypedDict):\n${required.map(field).join("")}`,
    );
    bases.push(`_${name}Required`);
  }
  if (keyword(optional)) {
    parts.push(call(optional, false));
    bases.push(`_${name}Optional`);
    return `${parts.join("\n\n")}\n\nclass ${name}(${bases.join(", ")}):\n${docText ? `    """${docText}"""\n` : "    pass\n"}`;
  }
  const rest = optional.length
    ? `${doc}${optional.map(field).join("")}`
    : docText
      ? `    """${docText}"""\n`
      : "    pass\n";
  return `${parts.join("\n\n")}\n\nclass ${name}(${bases.join(", ")}${optional.length ? ", total=False" : ""}):\n${rest}`;
}

/** Each named type as a Python declaration: a Literal alias of its words, or a TypedDict. */
export function pythonDeclarations(named: readonly NamedType[]): string {
  return named
    .map((n) => {
      if ("words" in n) return `${n.name} = Literal[${n.words.map((w) => JSON.stringify(w)).join(", ")}]\n`;
      const schema = n.schema as JsonSchema;
      if (shapeOf(schema).anyOf) return `${n.name} = ${typeOf(shapeOf(schema), named, n.name)}\n`;
      const doc = n.doc ?? schema.description;
      const extension = extensionOf(schema, named);
      return extension
        ? typedDict(n.name, extension.own, named, doc, extension.base)
        : typedDict(n.name, schema, named, doc);
    })
    .join("\n\n");
}
