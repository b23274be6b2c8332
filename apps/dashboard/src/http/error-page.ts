import type { NextFunction, Request, Response } from "express";
import type { Logger } from "@authsvc/logging";
import { html } from "../html/html";
import { HttpError } from "./http-error";
import { sendPage } from "./page";

export function notFound(_req: Request, _res: Response, next: NextFunction): void {
  next(HttpError.notFound());
}

/** Every refusal as a page with its status and a plain message; only our own faults are 500s (and logged). */
export function errorPage(log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let status = 500;
    let message = "Something went wrong on our side. Try again in a moment.";
    if (err instanceof HttpError) {
      ({ status, message } = err);
    } else if (
      typeof err === "object" &&
      err !== null &&
      typeof (err as { status?: unknown }).status === "number" &&
      (err as { status: number }).status < 500
    ) {
      // The body parser's refusals: too large, malformed, unsupported charset.
      status = (err as { status: number }).status;
      message = status === 413 ? "The form is too large." : "The form could not be read.";
    } else {
      log.error({ err, method: req.method, path: req.path }, "dashboard request failed");
    }
    if (res.headersSent) return;
    res.locals.csrfToken ??= "";
    sendPage(
      res,
      status === 404 ? "Not found" : status === 403 ? "Refused" : "Error",
      html`<p class="error" role="alert">${message}</p><p><a href="/">Back to the dashboard</a></p>`,
      { status },
    );
  };
}
