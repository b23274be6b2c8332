import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { bundleReader, generatedModule, generatedPath, IN_PAGE_READERS } from "./bundle";

describe.each(IN_PAGE_READERS)("the in-page reader $name", (reader) => {
  test("its committed bundle is what its modules make now (else: pnpm --filter @authsvc/flows generate)", () => {
    expect(readFileSync(generatedPath(reader), "utf8")).toBe(generatedModule(reader, bundleReader(reader)));
  });

  test("its bundle is one function expression that Puppeteer can send as it is", () => {
    const source = bundleReader(reader);
    // Puppeteer checks a function's source this way before it sends it.
    expect(() => new Function(`(${source})`)).not.toThrow();
  });
});

test("every generated source is a reader's (none left of a reader that went)", () => {
  const dir = dirname(generatedPath(IN_PAGE_READERS[0]!));
  expect(readdirSync(dir).sort()).toEqual(IN_PAGE_READERS.map((r) => basename(generatedPath(r))).sort());
});
