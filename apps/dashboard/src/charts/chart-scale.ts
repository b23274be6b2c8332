/** A round axis top at or above `max` (1, 2 or 5 times a power of ten) and its ticks from 0. */
export function niceScale(max: number, ticks = 4): { top: number; ticks: number[] } {
  if (max <= 0) return { top: 1, ticks: [0, 1] };
  const rough = max / ticks;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
  const top = Math.ceil(max / step) * step;
  return { top, ticks: Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step) };
}

export const count = (n: number) => n.toLocaleString("en-US");

export const percent = (rate: number | null) => (rate === null ? "—" : `${(rate * 100).toFixed(1)} %`);
