import { readFile } from "node:fs/promises";
import path from "node:path";
import { configGeneratedFiles, CONFIGURATION_DOC } from "./env-docs";
import { envSchema } from "./env-schema";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const read = () => readFile(path.join(REPO_ROOT, CONFIGURATION_DOC), "utf8");

it("docs/configuration.md's table is what `npm run generate:contracts` makes of the env schema now", async () => {
  const stale: string[] = [];
  for (const file of await configGeneratedFiles()) {
    const committed = await readFile(path.join(REPO_ROOT, file.path), "utf8").catch(() => undefined);
    if (committed !== file.content) stale.push(file.path);
  }
  expect(stale.length ? `stale: ${stale.join(", ")}; run \`npm run generate:contracts\`` : "in step").toBe("in step");
});

it("lists every environment variable in docs/configuration.md", async () => {
  const text = await read();
  for (const name of Object.keys(envSchema.properties)) expect(text).toContain(`| \`${name}\` |`);
});

it("gives each variable the schema's default, or says it is required", async () => {
  const text = await read();
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

it("describes every variable", () => {
  for (const [name, schema] of Object.entries(envSchema.properties))
    expect({ name, described: schema.description.trim().length > 0 }).toEqual({ name, described: true });
});
