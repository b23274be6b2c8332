import type { Request, Response } from "express";

/** Cookie names: with `Secure`, the `__Host-` prefix pins them to this host and path /, over https only. */
export function cookieNames(secure: boolean) {
  const prefix = secure ? "__Host-" : "";
  return { session: `${prefix}dash_session`, formToken: `${prefix}dash_form` };
}

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function setCookie(res: Response, name: string, value: string, secure: boolean, maxAgeMs?: number): void {
  res.cookie(name, value, {
    httpOnly: true,
    secure,
    sameSite: "lax",
    path: "/",
    ...(maxAgeMs !== undefined ? { maxAge: maxAgeMs } : {}),
  });
}

export function clearCookie(res: Response, name: string, secure: boolean): void {
  res.clearCookie(name, { httpOnly: true, secure, sameSite: "lax", path: "/" });
}
