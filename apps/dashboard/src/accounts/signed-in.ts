import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Database, SignedInSession } from "@authsvc/db";
import { clearCookie, cookieNames, readCookie, setCookie } from "../http/cookies";
import { HttpError } from "../http/http-error";

export interface SessionSettings {
  secure: boolean;
  ttlMs: number;
}

export const sessionOf = (res: Response) => res.locals.session as SignedInSession | undefined;

/**
 * Who is signed in (the session cookie's live session), and the form token of this browser: the
 * session's CSRF secret, or before sign-in a random value in its own cookie (double submit, so the sign-in
 * and sign-up forms are protected too).
 */
export function loadSession(db: Database, settings: SessionSettings) {
  const names = cookieNames(settings.secure);
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = readCookie(req, names.session);
    const session = token ? await db.dashboardSessions.find(token) : null;
    if (token && !session) clearCookie(res, names.session, settings.secure);
    if (session) {
      res.locals.session = session;
      res.locals.csrfToken = session.csrfSecret;
    } else {
      let formToken = readCookie(req, names.formToken);
      if (!formToken || !/^[A-Za-z0-9_-]{43}$/.test(formToken)) {
        formToken = randomBytes(32).toString("base64url");
        setCookie(res, names.formToken, formToken, settings.secure);
        // Only a page rendered now can carry it; a post that arrives without the cookie fails the check.
        res.locals.freshFormToken = true;
      }
      res.locals.csrfToken = formToken;
    }
    next();
  };
}

/** The token a non-GET request must carry, as `csrfGuard` asks for it. */
export function expectedCsrfToken(_req: Request, res: Response): string | undefined {
  return res.locals.freshFormToken ? undefined : (res.locals.csrfToken as string | undefined);
}

/** Starts a session (sign-in, sign-up, password change): a new token every time, the old one ended. */
export async function startSession(
  db: Database,
  settings: SessionSettings,
  res: Response,
  userId: string,
): Promise<void> {
  const names = cookieNames(settings.secure);
  const previous = sessionOf(res);
  if (previous) await db.dashboardSessions.remove(previous.id);
  const { token, session } = await db.dashboardSessions.create(userId, settings.ttlMs);
  setCookie(res, names.session, token, settings.secure, settings.ttlMs);
  res.locals.session = session;
  res.locals.csrfToken = session.csrfSecret;
}

export async function endSession(db: Database, settings: SessionSettings, res: Response): Promise<void> {
  const session = sessionOf(res);
  if (session) await db.dashboardSessions.remove(session.id);
  clearCookie(res, cookieNames(settings.secure).session, settings.secure);
  res.locals.session = undefined;
}

/** Pages for signed-in people: a browser is sent to sign in (and back), anything else is refused. */
export function requireUser(req: Request, res: Response, next: NextFunction): void {
  if (sessionOf(res)) return next();
  if (req.method === "GET") return res.redirect(303, `/signin?next=${encodeURIComponent(req.originalUrl)}`);
  next(new HttpError(401, "Sign in first."));
}

export function requirePlatformAdmin(_req: Request, res: Response, next: NextFunction): void {
  // Not found rather than forbidden: the admin area does not exist for anyone else.
  if (sessionOf(res)?.user.isPlatformAdmin) return next();
  next(HttpError.notFound());
}
