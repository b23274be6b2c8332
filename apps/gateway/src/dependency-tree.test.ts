import { readFileSync } from "node:fs";
import { join } from "node:path";

// The API process must not load Chromium's stack: it needs the target guard (@authsvc/egress), never
// Puppeteer. Walks the production dependencies of the gateway through every workspace package it uses.
const ROOT = join(__dirname, "../../..");

function manifest(dir: string): { name: string; dependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8"));
}

function workspaceDir(name: string): string {
  const short = name.replace("@authsvc/", "");
  for (const dir of [`packages/${short}`, `apps/${short}`]) {
    try {
      if (manifest(dir).name === name) return dir;
    } catch {
      // not this one
    }
  }
  throw new Error(`no workspace package ${name}`);
}

function productionTree(dir: string, seen = new Map<string, string>()): Map<string, string> {
  const pkg = manifest(dir);
  for (const [dep, range] of Object.entries(pkg.dependencies ?? {})) {
    if (seen.has(dep)) continue;
    seen.set(dep, pkg.name);
    if (range.startsWith("workspace:")) productionTree(workspaceDir(dep), seen);
  }
  return seen;
}

test("the gateway's production dependencies hold no Puppeteer or Chromium package", () => {
  const tree = productionTree("apps/gateway");
  expect(tree.has("@authsvc/egress")).toBe(true);
  const browserStack = [...tree]
    .filter(([dep]) => /puppeteer|@authsvc\/(browser|flows)$/.test(dep))
    .map(([dep, via]) => `${dep} (via ${via})`);
  expect(browserStack).toEqual([]);
});

test("a workspace package that loads Puppeteer is found by the walk", () => {
  // The walk itself must see through workspace packages, or the test above could not fail.
  const tree = productionTree("apps/worker");
  expect([...tree.keys()].some((dep) => dep.includes("puppeteer"))).toBe(true);
});
