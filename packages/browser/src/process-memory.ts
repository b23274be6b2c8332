import { readFileSync, readdirSync } from "node:fs";

/** Resident memory of one process, from /proc (Linux); 0 when it cannot be read. */
function rssBytes(pid: number): number {
  try {
    // statm: size resident shared … in pages.
    const resident = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
    return Number.isFinite(resident) ? resident * 4096 : 0;
  } catch {
    return 0;
  }
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

/**
 * Resident memory of a process and all its descendants (Chromium: the browser, its zygotes, renderers,
 * GPU and utility processes), in bytes. 0 when `pid` is unknown or /proc cannot be read (not Linux).
 */
export function processTreeRssBytes(pid: number | undefined): number {
  if (!pid) return 0;
  let pids: number[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map(Number);
  } catch {
    return 0;
  }
  const children = new Map<number, number[]>();
  for (const p of pids) {
    const parent = parentOf(p);
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), p]);
  }
  let total = 0;
  const stack = [pid];
  const seen = new Set<number>();
  while (stack.length) {
    const p = stack.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    total += rssBytes(p);
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}
