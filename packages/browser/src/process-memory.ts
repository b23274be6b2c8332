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

/**
 * The fields of /proc/<pid>/stat after "pid (comm) " (state, ppid, … utime stime cutime cstime at 11-14), or
 * null once the process is gone. comm may hold spaces and parentheses, so they are read after the last ')'.
 */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

function parentOf(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : null;
}

/** Every process's id, from /proc (Linux); empty where /proc cannot be read. */
function allPids(): number[] {
  try {
    return readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [];
  }
}

/** A process and all its descendants, by walking /proc (Linux); empty when `pid` is unknown or /proc cannot be read. */
function processTree(pid: number | undefined): number[] {
  if (!pid) return [];
  const pids = allPids();
  const children = new Map<number, number[]>();
  for (const p of pids) {
    const parent = parentOf(p);
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), p]);
  }
  const tree: number[] = [];
  const stack = [pid];
  const seen = new Set<number>();
  while (stack.length) {
    const p = stack.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    tree.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return tree;
}

/** Memory (PSS) of one process alone, without its children (a worker's Node without its Chromium); 0 when unknown. */
export function processOwnMemoryBytes(pid: number | undefined): number {
  return pid ? memoryBytes(pid) : 0;
}

/**
 * Memory (PSS, see memoryBytes) of a process and all its descendants (Chromium: the browser, its zygotes, renderers,
 * GPU and utility processes), in bytes. 0 when `pid` is unknown or /proc cannot be read (not Linux).
 */
export function processTreeMemoryBytes(pid: number | undefined): number {
  return processTree(pid).reduce((total, p) => total + memoryBytes(p), 0);
}

// Linux reports CPU times in clock ticks of 1/100 s (USER_HZ) on every architecture we run on.
const TICKS_PER_SECOND = 100;

/**
 * How many Chromium browsers a process has as its children now: one for a worker, two while a recycled one
 * finishes its last jobs beside its successor (for benchmarks, which tell that moment's memory apart).
 */
export function chromiumBrowsersOf(pid: number | undefined): number {
  if (!pid) return 0;
  let count = 0;
  for (const child of processTree(pid)) {
    const fields = statFields(child);
    if (!fields || Number(fields[1]) !== pid) continue;
    try {
      const cmd = readFileSync(`/proc/${child}/cmdline`, "utf8");
      if (/chrom/.test(cmd) && !cmd.includes("--type=") && !cmd.includes("crashpad")) count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

/**
 * The whole machine's busy CPU time so far (every process, the kernel's work included), in seconds, from
 * /proc/stat; 0 where it cannot be read. A benchmark's difference over a run is what the run cost the
 * machine, including processes a tree walk misses: Chromium's zygotes and renderers outlive a recycled
 * browser and are collected by init, not by the worker that started it.
 */
export function machineCpuSeconds(): number {
  try {
    const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
    const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number);
    return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU time (user and system) a process and its descendants have used so far, in seconds, including
 * descendants that already ended (a closed job's renderer: its parent collected its time). For benchmarks.
 */
export function processTreeCpuSeconds(pid: number | undefined): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    const fields = statFields(p); // null: ended meanwhile
    if (fields) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks / TICKS_PER_SECOND;
}

/** CPU time (user and system) of one process alone, without its children, in seconds; 0 once it is gone. For benchmarks. */
export function processOwnCpuSeconds(pid: number | undefined): number {
  const fields = pid ? statFields(pid) : null;
  return fields ? (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND : 0;
}

/**
 * CPU time of every process whose name (/proc/<pid>/comm) is `name`, with the children they collected
 * (PostgreSQL's ended backends are in the postmaster's), in seconds. For benchmarks: the stores' share of a run.
 */
export function namedProcessesCpuSeconds(name: string): number {
  let ticks = 0;
  for (const p of allPids()) {
    try {
      if (readFileSync(`/proc/${p}/comm`, "utf8").trim() !== name) continue;
    } catch {
      continue;
    }
    const fields = statFields(p);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks / TICKS_PER_SECOND;
}
