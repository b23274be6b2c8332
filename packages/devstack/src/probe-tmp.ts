import { BrowserHost, processTreeCpuSeconds, processTreeMemoryBytes, TargetGuard } from "@authsvc/browser";
import { type LearnedFlow, passwordLogin } from "@authsvc/flows";
import { LOGIN_CASES, startTestSites } from "@authsvc/test-sites";
import { readFileSync, readdirSync } from "node:fs";
function byType(root: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8");
      if (!cmd.includes("chromium")) continue;
      const st = readFileSync(`/proc/${d}/stat`, "utf8"); const f = st.slice(st.lastIndexOf(")") + 2).split(" ");
      const type = /--type=([a-z-]+)/.exec(cmd)?.[1] ?? "browser";
      const sub = /--utility-sub-type=([\w.]+)/.exec(cmd)?.[1];
      const k = sub ? `${type}:${sub}` : type;
      out[k] = (out[k] ?? 0) + (Number(f[11]) + Number(f[12])) / 100;
      out[k + "(reaped)"] = (out[k + "(reaped)"] ?? 0) + (Number(f[13]) + Number(f[14])) / 100;
    } catch {}
  }
  return out;
}

const PAGES = ["classic", "spa", "two-page", "modal-login", "iframe-cross-origin", "shadow-root", "controlled-inputs", "cookie-banner", "busy-dashboard", "late-form"];
(async () => {
  const sites = await startTestSites();
  const guard = new TargetGuard(["loopback"]);
  const host = new BrowserHost({ executablePath: process.env.PROBE_EXE ?? "/usr/bin/chromium", guard });
  await host.warmUp();
  const pid = await host.withPage(async (p) => p.browser().process()!.pid!);
  const cases = PAGES.map((n) => LOGIN_CASES.find((c) => c.name === n)!);
  const flows = new Map<string, LearnedFlow | null>();
  let seq = 0;
  const one = async (c: (typeof cases)[number]) => {
    const u = `probe-${++seq}@example.test`;
    sites.accounts.addUser(u, `probe-pw-${seq}`);
    const t = performance.now();
    const pw = `probe-pw-${seq}`;
    const r = await host.withPage((page) => passwordLogin(page, { loginUrl: c.url(sites.url), identifier: u, password: pw }, { guard, timeoutMs: 30_000, learned: flows.get(c.name) ?? null })).catch((e) => { console.log(c.name, String(e)); return {} as any; });
    if (r.flow) flows.set(c.name, r.flow);
    return performance.now() - t;
  };
  for (const c of cases) await one(c); // learn
  await new Promise((r) => setTimeout(r, 1500));
  const idle = processTreeMemoryBytes(pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, processTreeMemoryBytes(pid))), 100);
  const cpu0 = processTreeCpuSeconds(pid);
  const types0 = byType(pid);
  const own0 = process.cpuUsage();
  const N = Number(process.env.PROBE_N ?? 40);
  let next = 0;
  const times: number[] = [];
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 4 }, async () => { while (next < N) times.push(await one(cases[next++ % cases.length]!)); }));
  const wall = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const cpu = (processTreeCpuSeconds(pid) - cpu0) / N;
  const own = process.cpuUsage(own0);
  times.sort((a, b) => a - b);
  console.log(`${process.env.PROBE_LABEL ?? ""} chromium ${cpu.toFixed(3)} CPU-s/login, node ${((own.user + own.system) / 1e6 / N).toFixed(3)}; idle ${(idle / 2 ** 20).toFixed(0)} MiB, per context ${((peak - idle) / 4 / 2 ** 20).toFixed(0)} MiB; p50 ${times[N >> 1]!.toFixed(0)} ms; ${(N / wall).toFixed(2)} logins/s`);
  const types1 = byType(pid);
  for (const k of Object.keys(types1)) { const d = (types1[k]! - (types0[k] ?? 0)) / N; if (d > 0.005) console.log(`  ${k}: ${d.toFixed(3)}`); }
  await host.close();
  await sites.close();
  process.exit(0);
})();
