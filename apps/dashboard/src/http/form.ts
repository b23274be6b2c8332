import type { Request } from "express";

/** A text field of a posted form, trimmed unless `raw`; "" when absent or not a single string. */
export function field(req: Request, name: string, options: { max?: number; raw?: boolean } = {}): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  if (typeof value !== "string") return "";
  const text = options.raw ? value : value.trim();
  return text.slice(0, options.max ?? 500);
}

/** Every value of a repeated field (checkboxes). */
export function fields(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export function query(req: Request, name: string, max = 200): string {
  const value = req.query[name];
  return typeof value === "string" ? value.trim().slice(0, max) : "";
}

/** A path inside the dashboard to go to after signing in; never another site (`//host`, `/\host`, a scheme). */
export function localPath(value: string): string | null {
  return /^\/(?![/\\])[\x21-\x7e]*$/.test(value) ? value : null;
}
