import type { NextFunction, Request, Response } from "express";
import type { Database } from "@authsvc/db";
import { sessionOf } from "../accounts/signed-in";
import { HttpError } from "../http/http-error";

const ORG_ID = /^org_[0-9A-Za-z]{22}$/;

export interface OrgContext {
  id: string;
  name: string;
  role: "owner" | "member";
}

export const orgOf = (res: Response) => res.locals.org as OrgContext;

/**
 * `/o/:orgId/…`: the organization in the path, only when the signed-in user is a member of it. Every
 * org page reads its org from here, never from a form field; anyone else gets "not found".
 */
export function orgContext(db: Database) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const orgId = String(req.params.orgId ?? "");
    const user = sessionOf(res)?.user;
    const role = user && ORG_ID.test(orgId) ? await db.dashboardUsers.roleIn(user.id, orgId) : null;
    const org = role ? await db.organizations.find(orgId) : null;
    if (!role || !org) return next(HttpError.notFound("organization"));
    res.locals.org = { id: org.id, name: org.name, role } satisfies OrgContext;
    next();
  };
}

export function requireOwner(_req: Request, res: Response, next: NextFunction): void {
  if (orgOf(res).role === "owner") return next();
  next(new HttpError(403, "Only the organization's owners can do this."));
}
