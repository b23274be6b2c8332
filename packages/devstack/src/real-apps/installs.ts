import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { appDir, say } from "./places";

/** The real-application bench's installs: commands run to their end, Debian packages and npm projects. */

export class CommandError extends Error {}

/** Runs a command to its end; its output is returned, a failure throws with the output's tail. */
export function run(
  cmd: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs ?? 15 * 60_000,
      },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new CommandError(
              `${cmd} ${args.join(" ")}: ${err.message.split("\n")[0]}\n${`${stdout}${stderr}`.slice(-1500)}`,
            ),
          );
        else resolve(stdout);
      },
    );
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

export const sql = (socket: string, statements: string) =>
  run("mariadb", ["--socket", socket, "-u", "root", "-e", statements]);

let aptUpdated = false;
/** Installs the Debian packages not yet installed (services are not started by the package: we start them on loopback). */
export async function aptInstall(packages: string[], preseed = ""): Promise<void> {
  const missing: string[] = [];
  for (const p of packages) {
    const status = await run("dpkg-query", ["-W", "-f=${Status}", p]).catch(() => "");
    if (!status.includes("install ok installed")) missing.push(p);
  }
  if (!missing.length) return;
  if (process.getuid?.() !== 0)
    throw new Error(
      `missing Debian packages: ${missing.join(" ")}; install them as root: apt-get install -y ${missing.join(" ")}`,
    );
  if (preseed) await run("debconf-set-selections", [], { input: preseed });
  if (!aptUpdated) {
    say(`  apt-get update`);
    await run("apt-get", ["update", "-qq"]);
    aptUpdated = true;
  }
  say(`  apt-get install ${missing.join(" ")}`);
  // A package's own service must not start on Debian's default address (Apache on *:80): a policy-rc.d that
  // refuses every start, as Docker images ship, for the time of the install (ours is removed after).
  const policy = "/usr/sbin/policy-rc.d";
  const ours = !existsSync(policy);
  if (ours)
    writeFileSync(policy, "#!/bin/sh\n# authsvc bench:real, during an apt-get install\nexit 101\n", { mode: 0o755 });
  try {
    await run("apt-get", ["install", "-y", "-q", "--no-install-recommends", ...missing], {
      env: { DEBIAN_FRONTEND: "noninteractive" },
    });
  } finally {
    if (ours) rmSync(policy, { force: true });
  }
}

/** `npm install` of pinned packages in .data/real-apps/<name> (its own package.json, outside the workspace). */
export async function npmInstall(
  name: string,
  deps: Record<string, string>,
  options: { ignoreScripts?: boolean; rebuild?: string[]; overrides?: Record<string, string> } = {},
): Promise<string> {
  const dir = appDir(name);
  const done = path.join(dir, "node_modules", ".bench-installed");
  const manifest = JSON.stringify(
    {
      name: `bench-real-${name}`,
      private: true,
      dependencies: deps,
      ...(options.overrides ? { overrides: options.overrides } : {}),
    },
    null,
    2,
  );
  if (existsSync(done) && readFileSync(done, "utf8") === manifest) return dir;
  writeFileSync(path.join(dir, "package.json"), manifest);
  say(
    `  npm install ${Object.entries(deps)
      .map(([k, v]) => `${k}@${v}`)
      .join(" ")}`,
  );
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error", ...(options.ignoreScripts ? ["--ignore-scripts"] : [])],
    { cwd: dir },
  );
  if (options.rebuild?.length) await run("npm", ["rebuild", ...options.rebuild, "--build-from-source"], { cwd: dir });
  writeFileSync(done, manifest);
  return dir;
}
