import type { RequestHandler } from "express";
import type { Database } from "@authsvc/db";
import { ApiError } from "./api-error";

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;
const challenge = { "WWW-Authenticate": 'Bearer realm="authsvc"' };

/** `Authorization: Bearer pk_…`; sets `res.locals.orgId`. Unknown and revoked keys get the same answer. */
export function authenticate(db: Database): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    if (!header) throw new ApiError("unauthorized", "Missing Authorization header; send `Authorization: Bearer <API key>`.", undefined, challenge);
    const match = BEARER.exec(header);
    if (!match) throw new ApiError("unauthorized", "Malformed Authorization header; expected `Bearer <API key>`.", undefined, challenge);
    const key = await db.apiKeys.authenticate(match[1]!);
    if (!key) throw new ApiError("unauthorized", "The API key is not valid or has been revoked.", undefined, challenge);
    res.locals.orgId = key.orgId;
    res.locals.apiKeyId = key.apiKeyId;
    next();
  };
}
