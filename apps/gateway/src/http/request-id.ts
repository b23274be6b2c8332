import { randomBase62 } from "@authsvc/crypto";
import type { RequestHandler } from "express";

/** Every request gets an id, echoed in `X-Request-Id` and in every error body, to find it in our logs. */
export const requestId: RequestHandler = (req, res, next) => {
  res.locals.requestId = `req_${randomBase62(12)}`;
  res.setHeader("X-Request-Id", res.locals.requestId as string);
  next();
};
