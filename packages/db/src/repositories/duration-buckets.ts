/**
 * The job stats' duration histogram: bucket i holds durations below DURATION_BUCKETS_MS[i] (and at least
 * the bound before it); the last bucket, one more than there are bounds, holds everything longer. Roughly
 * 25-50 % apart, so a percentile read from them is off by less than one bucket's width. Changing them
 * changes the meaning of stored rows: add a migration that recomputes job_stats_hours and job_stats_site_hours.
 */
export const DURATION_BUCKETS_MS = [
  250, 500, 750, 1000, 1500, 2000, 3000, 4000, 5000, 6500, 8000, 10_000, 13_000, 16_000, 20_000, 25_000, 30_000, 40_000,
  55_000, 75_000, 100_000, 150_000,
] as const;

/**
 * The duration below which a fraction `q` (0.5: the median) of the counted jobs fall, interpolated linearly
 * inside its bucket; null when nothing was counted. A percentile in the open last bucket is reported as its
 * lower bound (the page says "over").
 */
export function durationPercentile(buckets: readonly number[], q: number): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < buckets.length; i++) {
    const count = buckets[i]!;
    if (count > 0 && below + count >= rank) {
      const lower = i === 0 ? 0 : DURATION_BUCKETS_MS[i - 1]!;
      const upper = DURATION_BUCKETS_MS[i];
      if (upper === undefined) return lower;
      return Math.round(lower + ((rank - below) / count) * (upper - lower));
    }
    below += count;
  }
  return DURATION_BUCKETS_MS[DURATION_BUCKETS_MS.length - 1]!;
}
