/**
 * One environment variable, written once: its JSON Schema (type, bounds, default: ajv checks and fills the
 * environment with it, and `Env` is read off it) and its documentation (docs/configuration.md's table is
 * generated from it, `npm run generate:contracts`). A variable cannot be added without the three.
 */
export type EnvVar = {
  /** The table's "meaning": Markdown, one paragraph, for an operator. */
  description: string;
} & (
  | ({ type: "string"; enum?: readonly string[]; pattern?: string; minLength?: number } & Default<string>)
  | ({ type: "integer"; minimum?: number; maximum?: number } & Default<number>)
  | ({ type: "boolean" } & Default<boolean>)
);

/**
 * The schema's default, which the table shows; or, for a variable without one, what the table says instead
 * (a default computed at start, a requirement the schema cannot state): never both, so they cannot disagree.
 */
type Default<T> = { default: T; docDefault?: never } | { default?: never; docDefault?: string };

export type EnvVars = Record<string, EnvVar>;

/** A description written over several source lines: the lines joined by spaces, as Markdown joins them. */
export function text(...lines: string[]): string {
  return lines.join(" ");
}
