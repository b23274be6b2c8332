import { Type } from "@sinclair/typebox";
import { nullable } from "../nullable";
import { componentRef, describedLoosely } from "../schema-refs";
import { stringEnum } from "../string-enum";
import { pythonDeclarations } from "./python-types";
import type { NamedType } from "./schema-walk";
import { typescriptDeclarations, typescriptImports } from "./typescript-types";

const COLOURS = ["red", "green"] as const;
const inner = Type.Object({ hex: Type.String() }, { additionalProperties: false });
const paint = Type.Object(
  {
    name: Type.String({ description: "What it is called." }),
    colour: stringEnum(COLOURS),
    finish: Type.Optional(stringEnum(["matt", "gloss"])),
    coats: Type.Optional(Type.Integer()),
    tags: Type.Optional(Type.Array(Type.String())),
    mix: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
    base: Type.Optional(inner),
    extra: Type.Optional(Type.Unsafe({ type: "object", additionalProperties: { type: "number" } })),
  },
  { additionalProperties: false },
);
const named: NamedType[] = [
  { name: "Colour", words: COLOURS, list: "COLOURS" },
  { name: "Base", schema: inner },
  { name: "Paint", schema: paint, doc: "A tin of it." },
];

describe("the clients' types made from a schema", () => {
  it("are TypeScript interfaces with optional members, named types and unions", () => {
    expect(typescriptDeclarations(named)).toBe(
      [
        'export const COLOURS = [\n  "red",\n  "green",\n] as const;\nexport type Colour = (typeof COLOURS)[number];\n',
        "export interface Base {\n  hex: string;\n}\n",
        "/** A tin of it. */\nexport interface Paint {\n" +
          "  /** What it is called. */\n  name: string;\n  colour: Colour;\n" +
          '  finish?: "matt" | "gloss";\n  coats?: number;\n  tags?: Array<string>;\n' +
          "  mix?: string | number | boolean;\n  base?: Base;\n  extra?: Record<string, number>;\n}\n",
      ].join("\n"),
    );
  });

  it("import a union declared in another generated module instead of declaring it", () => {
    const elsewhere: NamedType[] = [{ name: "Code", words: ["a", "b"], declaredIn: "./codes" }];
    expect(typescriptDeclarations(elsewhere)).toBe("");
    expect(typescriptImports(elsewhere)).toBe('import type { Code } from "./codes";\n');
  });

  it("are Python TypedDicts: the required keys in a total base class, the rest in a total=False one", () => {
    const python = pythonDeclarations(named);
    expect(python).toContain('Colour = Literal["red", "green"]\n');
    expect(python).toContain("class Base(TypedDict):\n    hex: str\n");
    expect(python).toContain(
      "class _PaintRequired(TypedDict):\n    # What it is called.\n    name: str\n    colour: Colour\n",
    );
    expect(python).toContain(
      'class Paint(_PaintRequired, total=False):\n    """A tin of it."""\n\n' +
        '    finish: Literal["matt", "gloss"]\n    coats: int\n    tags: List[str]\n' +
        "    mix: Union[str, float, bool]\n    base: Base\n    extra: Dict[str, float]\n",
    );
  });

  it("name a component's type for its $ref, read the precise schema of a loose one, and take {} as anything", () => {
    const shelf = Type.Object({
      tin: componentRef("Tin", paint),
      label: describedLoosely(inner, { type: "object" }),
      note: Type.Unknown(),
    });
    const withShelf: NamedType[] = [...named.slice(0, 2), { name: "Paint", component: "Tin", schema: paint }];
    const shelfTypes = [...withShelf, { name: "Shelf", schema: shelf }];
    expect(JSON.stringify(shelf.properties)).toBe(
      '{"tin":{"$ref":"#/components/schemas/Tin"},"label":{"type":"object"},"note":{}}',
    );
    expect(typescriptDeclarations(shelfTypes)).toContain(
      "export interface Shelf {\n  tin: Paint;\n  label: Base;\n  note: unknown;\n}\n",
    );
    expect(pythonDeclarations(shelfTypes)).toContain(
      "class Shelf(TypedDict):\n    tin: Paint\n    label: Base\n    note: Any\n",
    );
    expect(() =>
      typescriptDeclarations([{ name: "Lost", schema: Type.Object({ x: componentRef("Gone", inner) }) }]),
    ).toThrow(/no generated type/);
  });

  it("give `type: [t, null]` as the type or null", () => {
    const tagged = Type.Object({ tag: nullable(Type.String({ format: "date-time" })) });
    expect(JSON.stringify(tagged.properties.tag)).toBe('{"format":"date-time","type":["string","null"]}');
    expect(typescriptDeclarations([{ name: "Tagged", schema: tagged }])).toBe(
      "export interface Tagged {\n  tag: string | null;\n}\n",
    );
    expect(pythonDeclarations([{ name: "Tagged", schema: tagged }])).toBe(
      "class Tagged(TypedDict):\n    tag: Union[str, None]\n",
    );
  });

  it("give a nullable list of words as its union or null", () => {
    const tinted = Type.Object({ colour: nullable(stringEnum(COLOURS)), shade: nullable(stringEnum(["pale"])) });
    expect(JSON.stringify(tinted.properties.colour)).toBe('{"type":["string","null"],"enum":["red","green",null]}');
    const types = [named[0]!, { name: "Tinted", schema: tinted }];
    expect(typescriptDeclarations(types)).toContain(
      'export interface Tinted {\n  colour: Colour | null;\n  shade: "pale" | null;\n}\n',
    );
    expect(pythonDeclarations(types)).toContain(
      'class Tinted(TypedDict):\n    colour: Union[Colour, None]\n    shade: Union[Literal["pale"], None]\n',
    );
  });

  it("write a Python TypedDict whose required key is a keyword as a call", () => {
    const letter = Type.Object({
      from: Type.String({ description: "Who wrote it." }),
      to: Type.Optional(Type.String()),
    });
    expect(pythonDeclarations([{ name: "Letter", schema: letter }])).toBe(
      '_LetterRequired = TypedDict(\n    "_LetterRequired",\n    {\n        # Who wrote it.\n        "from": str,\n    },\n)\n\n\n' +
        "class Letter(_LetterRequired, total=False):\n    to: str\n",
    );
  });

  it("write a Python TypedDict whose optional key is a keyword as a call of its optional keys, inherited", () => {
    const parcel = Type.Object({
      to: Type.String(),
      import: Type.Optional(Type.Boolean({ description: "Brought from abroad." })),
    });
    expect(pythonDeclarations([{ name: "Parcel", schema: parcel, doc: "A parcel." }])).toBe(
      "class _ParcelRequired(TypedDict):\n    to: str\n\n\n" +
        '_ParcelOptional = TypedDict(\n    "_ParcelOptional",\n    {\n        # Brought from abroad.\n        "import": bool,\n    },\n    total=False,\n)\n\n\n' +
        'class Parcel(_ParcelRequired, _ParcelOptional):\n    """A parcel."""\n',
    );
  });

  it("give a union of shapes, loosely described, as an alias of their union; a const as its literal", () => {
    const can = Type.Object({ kind: Type.Literal("can"), size: Type.Integer() });
    const jar = Type.Object({ kind: Type.Literal("jar") });
    const tin = describedLoosely(Type.Union([can, jar]), { type: "object" });
    const types: NamedType[] = [
      { name: "Can", schema: can },
      { name: "Jar", schema: jar },
      { name: "Tin", schema: tin, doc: "Either." },
    ];
    expect(typescriptDeclarations(types)).toContain("/** Either. */\nexport type Tin = Can | Jar;\n");
    expect(typescriptDeclarations(types)).toContain('export interface Jar {\n  kind: "jar";\n}\n');
    expect(pythonDeclarations(types)).toContain("Tin = Union[Can, Jar]\n");
    expect(pythonDeclarations(types)).toContain('class Jar(TypedDict):\n    kind: Literal["jar"]\n');
  });

  it("refuse a schema they have no type for", () => {
    expect(() =>
      typescriptDeclarations([{ name: "Odd", schema: Type.Object({ x: Type.Unsafe({ not: {} }) }) }]),
    ).toThrow(/no generated type/);
  });
});
