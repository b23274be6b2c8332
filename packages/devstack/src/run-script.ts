import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "./repo-root";

const run = promisify(execFile);

/** Runs one of the repository's TypeScript entry points as an operator would, and what it printed. */
export async function runScript(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ["-r", path.join(REPO_ROOT, "scripts/swc-register.cjs"), file, ...args],
      { cwd: REPO_ROOT, env },
    );
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}
