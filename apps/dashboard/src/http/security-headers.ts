import type { NextFunction, Request, Response } from "express";

// Our pages load only our own stylesheet and script; forms post only to us; nobody may frame us.
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
// bull-board's single-page app: its bundle, inline styles, and its API calls.
const QUEUES_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline' https://fonts.googleapis.com; font-src 'self' https://fonts.gstatic.com; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'";

// A hosted hand-off page: our script and stylesheet, the live view's frames as data: images, its stream and input posts to us.
const HANDOFF_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

export function securityHeaders(queuesPath: string, handoffPath: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader(
      "Content-Security-Policy",
      req.path.startsWith(queuesPath) ? QUEUES_CSP : req.path.startsWith(handoffPath) ? HANDOFF_CSP : PAGE_CSP,
    );
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("X-Content-Type-Options", "nosniff");
    // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on our own form posts, which the CSRF check refuses.
    res.setHeader("Referrer-Policy", "same-origin");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    // Pages carry an organization's data (and once, a new key): no cache may keep a copy.
    if (!req.path.startsWith("/assets/")) res.setHeader("Cache-Control", "no-store");
    next();
  };
}
