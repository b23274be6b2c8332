import { readFileSync } from "node:fs";
import path from "node:path";
import { envSchema } from "./env-schema";

it("lists every environment variable in docs/configuration.md", () => {
  const text = readFileSync(path.resolve(__dirname, "../../../docs/configuration.md"), "utf8");
  for (const name of Object.keys(envSchema.properties)) expect(text).toContain(`| \`${name}\` |`);
});
