import { readFileSync } from "node:fs";
import path from "node:path";
import { envSchema } from "./env-schema";

const text = readFileSync(path.resolve(__dirname, "../../../docs/configuration.md"), "utf8");

it("lists every environment variable in docs/configuration.md", () => {
  for (const name of Object.keys(envSchema.properties)) expect(text).toContain(`| \`${name}\` |`);
});

it("gives each variable the schema's default, or says it is required", () => {
  const required: readonly string[] = envSchema.required;
  for (const [name, schema] of Object.entries(envSchema.properties)) {
    const column = new RegExp(`^\\| \`${name}\` \\| ([^|]*) \\|`, "m").exec(text)?.[1] ?? "";
    const fallback = "default" in schema ? String(schema.default) : undefined;
    if (required.includes(name))
      expect({ name, column }).toEqual({ name, column: expect.stringContaining("**required**") });
    else if (fallback === "") expect({ name, column }).toEqual({ name, column: expect.stringContaining("empty") });
    else if (fallback !== undefined)
      expect({ name, column }).toEqual({ name, column: expect.stringContaining(`\`${fallback}\``) });
  }
});
