import { readFile } from "node:fs/promises";
import path from "node:path";
import { generatedFiles, REPO_ROOT } from "./generated-files";

describe("the files generated from the contracts", () => {
  it("are what `npm run generate:contracts` makes of the contracts now", async () => {
    const stale: string[] = [];
    for (const file of await generatedFiles()) {
      const committed = await readFile(path.join(REPO_ROOT, file.path), "utf8").catch(() => undefined);
      if (committed !== file.content) stale.push(file.path);
    }
    expect(stale.length ? `stale: ${stale.join(", ")}; run \`npm run generate:contracts\`` : "in step").toBe("in step");
  });
});
