import { newId } from "@authsvc/crypto";
import type { Database } from "@authsvc/db";

/** A finished job as a test wants it in the history: where, how it ended, when, and how long it took. */
export interface PastJob {
  loginUrl: string;
  /** `succeeded`, or the failure's error code. */
  outcome: string;
  finishedAt: Date;
  durationMs?: number;
  kind?: string;
}

/**
 * Writes finished auth job records as the service leaves them (status, error code, times, duration; no
 * input), for tests of what is computed from the history (the job stats, the job lists' pages): weeks of
 * jobs that a test cannot wait for. One credential per login URL carries them.
 */
export async function recordPastJobs(db: Database, orgId: string, jobs: readonly PastJob[]): Promise<string[]> {
  const credentials = new Map<string, string>();
  for (const url of new Set(jobs.map((j) => j.loginUrl))) {
    credentials.set(url, (await db.credentials.ensure({ orgId, loginUrl: url, username: "history" })).id);
  }
  const rows = jobs.map((j) => {
    const durationMs = j.durationMs ?? 2000;
    const succeeded = j.outcome === "succeeded";
    return {
      id: newId("job"),
      orgId,
      credentialId: credentials.get(j.loginUrl)!,
      kind: j.kind ?? "login",
      method: "password",
      loginUrl: j.loginUrl,
      status: succeeded ? ("succeeded" as const) : ("failed" as const),
      errorCode: succeeded ? null : j.outcome,
      errorMessage: succeeded ? null : `recorded ${j.outcome}`,
      fingerprint: "history",
      useCache: true,
      attempts: 1,
      durationMs,
      createdAt: new Date(j.finishedAt.getTime() - durationMs),
      startedAt: new Date(j.finishedAt.getTime() - durationMs),
      finishedAt: j.finishedAt,
    };
  });
  for (let i = 0; i < rows.length; i += 5000) await db.prisma.authJob.createMany({ data: rows.slice(i, i + 5000) });
  return rows.map((r) => r.id);
}
