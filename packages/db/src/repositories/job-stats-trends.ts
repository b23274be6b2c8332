/**
 * When the charts call a change a change, not noise. A site's success rate "dropped" (the usual sign its
 * login page changed) when the last day and the 7 days before it each had at least `minJobs` jobs, the
 * rate fell at least `minDrop` (ten points), and a two-proportion z-test puts the fall at `minZ` standard
 * errors or more. A failure code "rose" when the last day had at least `minCount` of it, `factor` times its
 * daily average over the 7 days before, and `minZ` Poisson standard deviations above that average.
 */
export const SITE_DROP = { minJobs: 20, minDrop: 0.1, minZ: 3 } as const;
export const CODE_RISE = { minCount: 10, factor: 2, minZ: 3 } as const;

export interface SuccessCount {
  jobs: number;
  succeeded: number;
}

export const successRate = (c: SuccessCount): number | null => (c.jobs > 0 ? c.succeeded / c.jobs : null);

export function successDropped(day: SuccessCount, baseline: SuccessCount): boolean {
  if (day.jobs < SITE_DROP.minJobs || baseline.jobs < SITE_DROP.minJobs) return false;
  const now = day.succeeded / day.jobs;
  const before = baseline.succeeded / baseline.jobs;
  if (before - now < SITE_DROP.minDrop) return false;
  const pooled = (day.succeeded + baseline.succeeded) / (day.jobs + baseline.jobs);
  const error = Math.sqrt(pooled * (1 - pooled) * (1 / day.jobs + 1 / baseline.jobs));
  return error > 0 && (before - now) / error >= SITE_DROP.minZ;
}

/** `day`: the code's count in the last day; `baseline`: in the 7 days before it. */
export function codeRose(day: number, baseline: number): boolean {
  const average = baseline / 7;
  return (
    day >= CODE_RISE.minCount &&
    day >= CODE_RISE.factor * average &&
    (day - average) / Math.sqrt(Math.max(average, 1)) >= CODE_RISE.minZ
  );
}
