// `npm run generate:contracts`: writes the files made from packages/contracts (the SDK's and the Python
// client's copies, the docs' tables) and from the env schema (docs/configuration.md's table);
// generated-in-step.test.ts and env-docs.test.ts fail while one of them is stale.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { generatedFiles, REPO_ROOT } from "../packages/contracts/src/generate/generated-files";
import { configGeneratedFiles } from "../packages/config/src/env-docs";

async function main() {
  for (const file of [...(await generatedFiles()), ...(await configGeneratedFiles())]) {
    const target = path.join(REPO_ROOT, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.content);
    console.log(`wrote ${file.path}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
