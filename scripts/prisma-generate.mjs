// Runs `prisma generate`. The Prisma CLI insists on a schema-engine binary it cannot download on our
// machines; generate never executes it, so any existing file satisfies the check.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const cli = path.join(root, "packages/db/node_modules/prisma/build/index.js");
const run = spawnSync(
  process.execPath,
  [cli, "generate", "--config", path.join(root, "packages/db/prisma.config.ts")],
  {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
  },
);
if (run.status !== 0) {
  process.stderr.write(run.stdout + run.stderr);
  process.exit(run.status ?? 1);
}
