import type { Request } from "express";
import { HttpError } from "../http/http-error";

export const CHART_RANGES = ["day", "week"] as const;
export type ChartRange = (typeof CHART_RANGES)[number];

/** The hourly chart's range from the query (`range`): the last day unless `week`; anything else is a 400. */
export function chartRange(value: string): ChartRange {
  if (!value || value === "day") return "day";
  if (value === "week") return "week";
  throw new HttpError(400, `The chart range must be "day" or "week".`);
}

/** The same, read from the request's query string. */
export function chartRangeOf(req: Request): ChartRange {
  const value = req.query.range;
  if (value !== undefined && typeof value !== "string")
    throw new HttpError(400, `The chart range must be "day" or "week", given once.`);
  return chartRange(value ?? "");
}

export const rangeLabel = (r: ChartRange) => (r === "day" ? "last day" : "last week");
