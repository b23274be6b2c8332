import os from "node:os";
import { processTreeMemoryBytes } from "@authsvc/browser";
import type { benchInbox } from "./bench-inbox";
import type { benchSignup } from "./bench-signup";
import type { benchOAuth } from "./bench-oauth";
import type { benchProxy } from "./bench-proxy";
import type { benchPasskeyPrompt } from "./bench-passkey";
import type { CachedRun, benchCheckedHits } from "./bench-cached";
import type { FleetResult } from "./bench-fleet";
import { PHASES, type FreshLoginRow } from "./bench-fresh-login";
import type { Stack } from "./stack";
import { figureRow, median, mib, ms, spread, times, type Row } from "./bench-table";

/** The benchmark's figures as rows of its table, one function a section (bench.ts runs the sections). */

/** 1. A fresh login, side by side with a hand-written script on the same page (issue 15, item 3). */
export function freshLoginRows(fresh: FreshLoginRow[]): Row[] {
  const rows: Row[] = [];
  const learnedRatios: number[] = [];
  const strictRatios: number[] = [];
  for (const r of fresh) {
    const hand = median(r.handWritten);
    const ahead = median(r.handWrittenPageReady);
    const learned = median(r.learned);
    learnedRatios.push(learned / hand);
    strictRatios.push(learned / ahead);
    const baseline = `script ${ms(hand)}; with its context made ahead ${ms(ahead)}`;
    rows.push({
      figure: `fresh login, ${r.page}, learned flow (HTTP request → session, median of ${r.learned.length})`,
      value: ms(learned),
      baseline,
      ratio: `${times(learned / hand)}; ${times(learned / ahead)}`,
      goal: "≤ 1.00x",
    });
    rows.push({
      figure: `fresh login, ${r.page}, first login of an org (detection)`,
      value: ms(median(r.detected)),
      baseline,
      ratio: `${times(median(r.detected) / hand)}; ${times(median(r.detected) / ahead)}`,
      goal: "—",
    });
  }
  // Where a learned login's time goes, read off its job's events: the medians of each phase, per page.
  for (const r of fresh) {
    const medians = PHASES.map((_, i) => median(r.learnedPhases.map((p) => p[i]!).filter((x) => !Number.isNaN(x))));
    rows.push(
      figureRow(
        `fresh login, ${r.page}, learned flow: where the time goes (median ms)`,
        PHASES.map((p, i) => `${p} ${medians[i]!.toFixed(0)}`).join("; "),
      ),
    );
  }
  if (fresh.length)
    rows.push({
      figure: "fresh login, learned flow: median of the pages' ratios",
      value: `${times(median(learnedRatios))}; ${times(median(strictRatios))}`,
      baseline: "script; with its context made ahead",
      ratio: `${times(median(learnedRatios))}; ${times(median(strictRatios))}`,
      goal: "≤ 1.00x",
    });
  return rows;
}

/** 2. A cached login against a bare Express endpoint returning the same JSON (item 4), and hits due a session check. */
export function cachedLoginRows(
  runs: CachedRun[],
  checked: Awaited<ReturnType<typeof benchCheckedHits>> | null,
): Row[] {
  const cachedRows: Row[] = [];
  for (const run of runs) {
    const { service, bare } = run;
    cachedRows.push({
      figure: `cached login, concurrency ${run.concurrency}: throughput (autocannon, ${run.durationSeconds} s)`,
      value: `${service.reqPerSec.toFixed(0)} req/s${service.errors ? ` (${service.errors} errors)` : ""}`,
      baseline: `bare Express ${bare.reqPerSec.toFixed(0)} req/s`,
      ratio: times(run.throughputRatio),
      goal: "≥ 0.50x",
    });
    cachedRows.push({
      figure: `cached login, concurrency ${run.concurrency}: latency`,
      // autocannon reports whole milliseconds.
      value: `p50 ${service.p50.toFixed(0)} ms, p99 ${service.p99.toFixed(0)} ms`,
      baseline: `bare p50 ${bare.p50.toFixed(0)} ms, p99 ${bare.p99.toFixed(0)} ms`,
      ratio: "—",
      goal: run.concurrency === 1 ? "p99 ≤ 5 ms" : "—",
    });
  }
  // Hits whose entry is due a session check (SESSION_CHECK_MAX_AGE passed): the site is asked first.
  if (checked)
    cachedRows.push({
      figure: `cached login, concurrency 1: hit that needs a session check (${checked.count} requests)`,
      value: `p50 ${checked.checked.p50.toFixed(1)} ms, p99 ${checked.checked.p99.toFixed(1)} ms`,
      baseline: `hit without a check: p50 ${checked.plain.p50.toFixed(1)} ms, p99 ${checked.plain.p99.toFixed(1)} ms`,
      ratio: times(checked.checked.p50 / checked.plain.p50),
      goal: "—",
    });
  return cachedRows;
}

/** What the other paths measured, for reference (section 3). */
export interface OtherPaths {
  inbox: Awaited<ReturnType<typeof benchInbox>>;
  signups: Awaited<ReturnType<typeof benchSignup>>;
  oauth: Awaited<ReturnType<typeof benchOAuth>>;
  proxied: Awaited<ReturnType<typeof benchProxy>>;
  passkey: Awaited<ReturnType<typeof benchPasskeyPrompt>>;
}

/** 3. The other paths, for reference, and the stack's memory after them. */
export function otherPathRows({ inbox, signups, oauth, proxied, passkey }: OtherPaths, stack: Stack): Row[] {
  const other: Array<[string, number[]]> = [
    ["mail-in: SMTP send, parse, encrypt, store", inbox.smtpAccept],
    ["mail-in: send start → subscriber woken", inbox.wake],
    ["otp_email login (form, mail, code)", inbox.otpEmail],
    ["magic_link login (form, mail, link)", inbox.magicLink],
    ["signup, signed in at once (JS form)", signups.instant],
    ["signup + emailed 6-digit code", signups.code],
    ["signup + emailed link + login", signups.linkThenLogin],
    ["password login on an OAuth site's own form", oauth.password],
    ["OAuth login, provider password + consent", oauth.oauthFirst],
    ["OAuth login, kept provider session", oauth.oauthKept],
    ["login, learned flow, directly (new account each run)", proxied.direct],
    ["the same through an organization's HTTP proxy (Basic credentials)", proxied.http],
    ["the same through an organization's SOCKS5 proxy", proxied.socks5],
    ["login on a username-first page, learned (new account each run)", passkey.withoutPage],
    ["the same site with a passkey page before the password (no passkey asked; Try another way)", passkey.unprompted],
    ["one round trip to the fixture site (a page fetched)", passkey.roundTrip],
  ];
  const otherRows = other.map(([figure, xs]) => figureRow(figure, spread(xs)));
  // Issue 29: a passkey prompt the credential cannot answer costs no more than one round trip.
  const promptCost = median(passkey.prompted) - median(passkey.unprompted);
  otherRows.push({
    figure: "the passkey page asking for a passkey first (answered none at once), what the prompt adds",
    value: `${spread(passkey.prompted)}; +${ms(promptCost)}`,
    baseline: `without the prompt ${ms(median(passkey.unprompted))} + one round trip ${ms(median(passkey.roundTrip))}`,
    ratio: times(median(passkey.prompted) / (median(passkey.unprompted) + median(passkey.roundTrip))),
    goal: "≤ 1.00x",
  });
  otherRows.push(
    figureRow(
      "memory after the run (PSS)",
      `gateway ${mib(processTreeMemoryBytes(stack.processes.gateway.pid))}, worker + Chromium ${mib(processTreeMemoryBytes(stack.processes.worker.pid))}, mail-in ${mib(processTreeMemoryBytes(stack.processes.mailIn?.pid))}`,
    ),
  );
  return otherRows;
}

/** 4. The fleet under a backlog (item 5); `recycleAfter`: the jobs a Chromium runs before it is recycled. */
export function fleetRows(fleet: FleetResult, recycleAfter: string | undefined): Row[] {
  return [
    figureRow(
      `fleet: ${fleet.workers} workers × concurrency ${fleet.concurrencyPerWorker}, ${fleet.logins} fresh logins, 8 in flight`,
      `${(fleet.logins / fleet.seconds).toFixed(2)} logins/s`,
    ),
    {
      figure:
        "fleet: CPU-seconds per login, the service (the machine's busy time less the bench's sites and load); of it the gateway, the workers' Node, Postgres, Redis, Chromium and the rest",
      value:
        [
          fleet.cpuPerLogin.service.toFixed(2),
          ...(["gateway", "workers", "postgres", "redis", "chromiumAndRest"] as const).map((k) =>
            fleet.cpuPerLogin[k].toFixed(3),
          ),
        ].join(" s; ") + " s",
      baseline: `${os.cpus().length} cores: at most ${(os.cpus().length / fleet.cpuPerLogin.service).toFixed(2)} logins/s`,
      ratio: "—",
      goal: "—",
    },
    figureRow("fleet: latency of a login (queue wait included)", spread(fleet.latencies)),
    { figure: "fleet: errors", value: String(fleet.errors), baseline: "—", ratio: "—", goal: "0" },
    {
      figure: "fleet: peak memory (PSS), workers + Chromium",
      value: mib(fleet.peakMemoryBytes),
      baseline: `idle ${mib(fleet.idleMemoryBytes)}`,
      ratio: times(fleet.peakMemoryBytes / fleet.idleMemoryBytes),
      goal: "—",
    },
    {
      figure:
        "fleet: memory per concurrent browser context (outside recycles): from the peak; from the samples' p95 and median",
      value: `${mib(fleet.perContextBytes)}; ${mib(fleet.perContextP95Bytes)}, ${mib(fleet.perContextMedianBytes)}`,
      baseline: "—",
      ratio: "—",
      goal: "≤ 60 MiB",
    },
    figureRow(
      "fleet: of the median's figure per context, the workers' Node; their Chromium",
      `${mib(fleet.perContextMedianNodeBytes)}; ${mib(fleet.perContextMedianBytes - fleet.perContextMedianNodeBytes)}`,
    ),
    {
      figure: "fleet: peak memory while a recycled Chromium finished beside its successor",
      value: fleet.recyclePeakBytes ? mib(fleet.recyclePeakBytes) : "—",
      baseline: `idle ${mib(fleet.idleMemoryBytes)}`,
      ratio: fleet.recyclePeakBytes ? times(fleet.recyclePeakBytes / fleet.idleMemoryBytes) : "—",
      goal: "—",
    },
    figureRow(`fleet: Chromium recycled during the run (every ${recycleAfter} jobs)`, String(fleet.recycles)),
    figureRow(
      "fleet: what a login costs Postgres (transactions; rows written; database growth) and Redis (commands; memory held after the run)",
      `${fleet.stores.postgresTransactions.toFixed(1)}; ${fleet.stores.postgresRowsWritten.toFixed(1)}; ${(fleet.stores.postgresBytes / 1024).toFixed(1)} KiB — ${fleet.stores.redisCommands.toFixed(0)}; ${(fleet.stores.redisBytes / 1024).toFixed(1)} KiB`,
    ),
  ];
}
