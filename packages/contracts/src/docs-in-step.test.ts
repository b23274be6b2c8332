import { readFileSync } from "node:fs";
import path from "node:path";
import { ERROR_CODES } from "./error-codes";
import { openApiDocument } from "./openapi";

const docs = (name: string) => readFileSync(path.resolve(__dirname, "../../../docs", name), "utf8");

describe("documentation stays in step with the code", () => {
  it("lists every error code with its HTTP status in docs/errors.md", () => {
    const text = docs("errors.md");
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      expect(text).toMatch(new RegExp(`\\| \`${code}\` \\| ${status} \\|`));
    }
  });

  it("documents every error code in the OpenAPI description", () => {
    expect(openApiDocument.components.schemas.Error.properties.error.properties.code.enum).toEqual(
      Object.keys(ERROR_CODES),
    );
    const described = JSON.stringify(openApiDocument.paths);
    for (const code of Object.keys(ERROR_CODES).filter((c) => c !== "not_found"))
      expect(described).toContain(`\`${code}\``);
  });
});
