// Runs our TypeScript in Node by transpiling each .ts file with swc on load: the same transform jest uses,
// so what the tests run is what the service runs. (tsx/esbuild wraps functions in `__name(...)`, which breaks
// functions that Puppeteer serializes into the page.)
const { addHook } = require("pirates");
const { transformSync } = require("@swc/core");

addHook(
  (code, filename) =>
    transformSync(code, {
      filename,
      jsc: { parser: { syntax: "typescript" }, target: "es2022" },
      module: { type: "commonjs" },
      sourceMaps: "inline",
    }).code,
  { exts: [".ts"] },
);
