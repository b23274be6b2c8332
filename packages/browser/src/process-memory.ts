import { readFileSync, readdirSync } from "node:fs";

/**
 * Memory of one process, from /proc (Linux): its proportional set size (PSS: pages it shares with other
 * processes counted in part), so that summing Chromium's processes, which share most of their code and
 * much of their data, does not count the shared pages once per process. Its RSS where PSS cannot be read;
 * 0 when neither can.
 */
function memoryBytes(pid: number): number {
  try {
    const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1];
    if (pss) return Number(pss) * 1024;
  } catch {
    // older kernels: no smaps_rollup
  }
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
 * Memory (PSS, see memoryBytes) of a process and all its descendants (Chromium: the browser, its zygotes, renderers,
 * GPU and utility processes), in bytes. 0 when `pid` is unknown or /proc cannot be read (not Linux).
 */
export function processTreeMemoryBytes(pid: number | undefined): number {
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
    total += memoryBytes(p);
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}
