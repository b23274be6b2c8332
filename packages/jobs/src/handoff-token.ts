import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The token of a job's hosted hand-off page: the job and its run, and an HMAC of both under the service's
 * fingerprint key. Unguessable, and stored nowhere: any replica checks it again from the key, and it is
 * good only while that run of the job waits (the page answers 410 once the job ended).
 */
export function handoffToken(key: Buffer, jobId: string, run: number): string {
  return `${jobId}.${run}.${macOf(key, jobId, run)}`;
}

/** The job and run a token names, when it is one of ours; null for anything else. */
export function readHandoffToken(key: Buffer, token: string): { jobId: string; run: number } | null {
  const m = /^(job_[0-9A-Za-z]{22})\.(\d{1,6})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const [, jobId, runText, mac] = m as unknown as [string, string, string, string];
  const expected = Buffer.from(macOf(key, jobId, Number(runText)));
  return timingSafeEqual(expected, Buffer.from(mac)) ? { jobId, run: Number(runText) } : null;
}

/** The page's address on the dashboard; null when the service does not know its public address (DASHBOARD_URL). */
export function handoffUrl(dashboardUrl: string | undefined, key: Buffer, jobId: string, run: number): string | null {
  return dashboardUrl ? `${dashboardUrl.replace(/\/+$/, "")}/handoff/${handoffToken(key, jobId, run)}` : null;
}

function macOf(key: Buffer, jobId: string, run: number): string {
  return createHmac("sha256", key).update(`handoff\0${jobId}\0${run}`).digest("base64url");
}
