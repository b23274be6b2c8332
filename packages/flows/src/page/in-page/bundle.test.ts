import { readFileSync } from "node:fs";
import { bundleReadFrame, GENERATED_PATH, generatedModule } from "./bundle";

test("the committed in-page bundle is what the reader's modules make now (else: pnpm --filter @authsvc/flows generate)", () => {
  expect(readFileSync(GENERATED_PATH, "utf8")).toBe(generatedModule(bundleReadFrame()));
});

test("the bundle is one function expression that Puppeteer can send as it is", () => {
  const source = bundleReadFrame();
  // Puppeteer checks a function's source this way before it sends it.
  expect(() => new Function(`(${source})`)).not.toThrow();
});
