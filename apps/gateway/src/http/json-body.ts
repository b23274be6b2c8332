import express, { type RequestHandler } from "express";
import { ApiError } from "./api-error";

/** JSON bodies only, bounded in size; parse failures become 4xx answers in the error handler. */
export function jsonBody(limitBytes: number): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    if (req.method === "POST" && !req.is("application/json")) {
      throw new ApiError("unsupported_media_type", "Send the body as JSON with `Content-Type: application/json`.");
    }
    next();
  };
  return [requireJson, express.json({ limit: limitBytes, strict: true })];
}
