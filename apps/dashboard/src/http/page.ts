import type { Response } from "express";
import { layout, type PageContext } from "../html/layout";
import type { SafeHtml } from "../html/html";

/** The frame's context of this request: set by the session and organization middleware. */
export function pageContext(res: Response): PageContext {
  const session = res.locals.session as { user: PageContext["user"] } | undefined;
  return { user: session?.user, org: res.locals.org as PageContext["org"], csrfToken: res.locals.csrfToken as string };
}

export function sendPage(
  res: Response,
  title: string,
  body: SafeHtml,
  options: { status?: number; current?: string } = {},
): void {
  res
    .status(options.status ?? 200)
    .type("html")
    .send(layout(pageContext(res), title, body, options.current).value);
}
