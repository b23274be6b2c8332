import { readFile } from "node:fs/promises";
import path from "node:path";
import { generatedHeader } from "@authsvc/contracts/src/generate/generated-header";
import { envSchema } from "./env-schema";
import type { EnvVar } from "./env/env-var";

// docs/configuration.md's table of environment variables, made from the env schema: `npm run
// generate:contracts` writes it (beside the files made from packages/contracts), and env-docs.test.ts fails
// while the committed table differs from a fresh one.

export const CONFIGURATION_DOC = "docs/configuration.md";
const REPO_ROOT = path.resolve(__dirname, "../../..");
const SOURCE = "the env schema (packages/config/src/env/)";
const BEGIN = "<!-- environment variables: begin -->";
const END = "<!-- environment variables: end -->";

/** What the default column says: the schema's default, or what the variable says instead, or that it is required. */
function shownDefault(name: string, v: EnvVar): string {
  const required: readonly string[] = envSchema.required;
  if (required.includes(name)) return "**required**";
  if (v.docDefault !== undefined) return v.docDefault;
  if (v.default === undefined) return "*(unset)*";
  return v.default === "" ? "*(empty)*" : `\`${String(v.default)}\``;
}

/** What the type column says: the JSON type and the bounds ajv holds a value to. */
function shownType(v: EnvVar): string {
  if (v.type === "string" && v.enum) {
    const values = v.enum.map((e) => `\`${e}\``);
    return `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
  }
  if (v.type !== "integer") return v.type;
  const { minimum: min, maximum: max } = v;
  if (min !== undefined && max !== undefined) return `integer ${min}–${max}`;
  if (min !== undefined) return `integer ≥ ${min}`;
  return max !== undefined ? `integer ≤ ${max}` : "integer";
}

function cell(name: string, text: string): string {
  if (/[|\n]/.test(text)) throw new Error(`${name}: a table cell cannot hold "|" or a line break: ${text}`);
  return text;
}

/** The table: one row per variable, in the schema's order. */
export function environmentTable(): string {
  const rows = Object.entries(envSchema.properties as Record<string, EnvVar>).map(
    ([name, v]) =>
      `| \`${name}\` | ${cell(name, shownDefault(name, v))} | ${shownType(v)} | ${cell(name, v.description)} |`,
  );
  return [
    BEGIN,
    generatedHeader("<!--", SOURCE),
    "",
    "| variable | default | type | meaning |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

/** docs/configuration.md with its table (between the markers) made afresh. */
export function configurationDoc(current: string): string {
  const begin = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${CONFIGURATION_DOC} has lost its markers ${BEGIN} … ${END}`);
  return current.slice(0, begin) + environmentTable() + current.slice(end);
}

/** The files made from the env schema, as `npm run generate:contracts` writes them. */
export async function configGeneratedFiles(): Promise<{ path: string; content: string }[]> {
  const current = await readFile(path.join(REPO_ROOT, CONFIGURATION_DOC), "utf8");
  return [{ path: CONFIGURATION_DOC, content: configurationDoc(current) }];
}
