import type { ErrorRequestHandler, RequestHandler } from "express";
import type { ErrorBody } from "@authsvc/contracts";
import type { Logger } from "@authsvc/logging";
import { isDatabaseUnreachable } from "@authsvc/db";
import { RegionUnavailable } from "@authsvc/jobs";
import { isRedisUnavailable } from "@authsvc/queue";
import { ApiError } from "./api-error";

// body-parser tags its errors with a `type`; each maps to a client error.
const BODY_ERRORS: Record<string, () => ApiError> = {
  "entity.parse.failed": () => new ApiError("invalid_json", "The request body is not valid JSON."),
  "entity.too.large": () => new ApiError("payload_too_large", "The request body is too large."),
  "encoding.unsupported": () => new ApiError("unsupported_media_type", "Unsupported content encoding."),
  "charset.unsupported": () => new ApiError("unsupported_media_type", "Unsupported charset; send UTF-8."),
  "request.aborted": () => new ApiError("invalid_request", "The request body was not received completely."),
};

/** Client errors raised by Express, body-parser or decoding (they carry a 4xx `status`) that have no entry above. */
function clientErrorOf(err: unknown): ApiError | null {
  const status =
    typeof err === "object" && err !== null
      ? Number((err as { status?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode)
      : NaN;
  if (!(status >= 400 && status < 500)) return null;
  if (status === 413) return new ApiError("payload_too_large", "The request body is too large.");
  if (status === 415) return new ApiError("unsupported_media_type", "Unsupported body encoding or media type.");
  return new ApiError("invalid_request", "The request could not be read (malformed body, encoding or URL).");
}

/** Redis or PostgreSQL away (restarting, failing over): answered 503 + Retry-After, never 500. */
function isInfrastructureDown(err: unknown): boolean {
  return isRedisUnavailable(err) || isDatabaseUnreachable(err);
}

export const notFound: RequestHandler = (req) => {
  throw new ApiError("not_found", `No route for ${req.method} ${req.path}.`);
};

/** The one place failures become HTTP answers: the same JSON shape for every error, never a stack trace. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const requestId = (res.locals.requestId as string | undefined) ?? "req_unknown";
    let apiError: ApiError;
    if (err instanceof ApiError) apiError = err;
    else if (err instanceof RegionUnavailable)
      apiError = new ApiError("region_unavailable", err.message, undefined, { "Retry-After": "30" });
    else if (typeof err?.type === "string" && BODY_ERRORS[err.type]) apiError = BODY_ERRORS[err.type]!();
    else if (clientErrorOf(err)) apiError = clientErrorOf(err)!;
    else if (isInfrastructureDown(err)) {
      log.error({ requestId, err: String(err?.message ?? err) }, "dependency unavailable");
      apiError = new ApiError(
        "service_unavailable",
        "The service is temporarily unavailable; retry shortly.",
        undefined,
        { "Retry-After": "5" },
      );
    } else {
      log.error(
        { requestId, method: req.method, path: req.path, err: err instanceof Error ? err.stack : String(err) },
        "unhandled error",
      );
      apiError = new ApiError("internal_error", "Something went wrong on our side.");
    }
    const body: ErrorBody = { error: { code: apiError.code, message: apiError.message, requestId } };
    if (apiError.details?.length) body.error.details = apiError.details;
    if (apiError.credentialId) body.error.credentialId = apiError.credentialId;
    if (res.headersSent) {
      res.destroy(); // the answer was under way: cut it rather than leave the client waiting
      return;
    }
    res.status(apiError.status).set(apiError.headers).json(body);
  };
}
