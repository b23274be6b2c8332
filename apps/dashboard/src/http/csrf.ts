import { timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { HttpError } from "./http-error";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether the request may come from where it says: refuses other origins and cross-site fetches. */
export function sameOrigin(
  headers: { origin?: string; "sec-fetch-site"?: string },
  ownOrigin: string,
  requireOrigin: boolean,
): boolean {
  if (headers["sec-fetch-site"] === "cross-site") return false;
  const origin = headers.origin;
  if (origin === undefined) return !requireOrigin;
  return origin === ownOrigin;
}

export function tokensMatch(presented: unknown, expected: string | undefined): boolean {
  if (typeof presented !== "string" || !expected) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface CsrfOptions {
  /** The dashboard's own origin for this request. */
  ownOrigin: (req: Request) => string;
  /** The token this request must carry: the session's secret, or the signed-out form cookie. */
  expectedToken: (req: Request, res: Response) => string | undefined;
  /** Paths whose state changes come from a script we do not write (bull-board): the Origin check only, Origin required. */
  originOnly: (req: Request) => boolean;
}

/**
 * Every state-changing request: from our own origin (Origin header; Sec-Fetch-Site not cross-site), and
 * carrying the synchronizer token (`_csrf` field or `X-CSRF-Token` header) of its session.
 */
export function csrfGuard(options: CsrfOptions) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const originOnly = options.originOnly(req);
    const headers = { origin: req.get("origin"), "sec-fetch-site": req.get("sec-fetch-site") };
    if (!sameOrigin(headers, options.ownOrigin(req), originOnly)) {
      return next(new HttpError(403, "This request came from another site and was refused."));
    }
    if (originOnly) return next();
    const presented = (req.body as Record<string, unknown> | undefined)?._csrf ?? req.get("x-csrf-token");
    if (!tokensMatch(presented, options.expectedToken(req, res))) {
      return next(
        new HttpError(403, "This form has expired or did not come from this dashboard. Reload the page and try again."),
      );
    }
    next();
  };
}
