/** Markup that is already safe to send: built by `html` (which escaped every value) or by `trusted`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = string | number | boolean | null | undefined | Date | SafeHtml | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value instanceof Date) return escapeHtml(value.toISOString());
  return escapeHtml(String(value));
}

/**
 * The one way pages are written: every interpolated value is escaped (text and attribute values alike)
 * unless it is itself `SafeHtml`; arrays are joined; null, undefined and false render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/** Markup written in our own source (never a value from a request or the database). */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
