export { AuthClient, Credentials, type AuthClientOptions, type JobCallOptions } from "./client";
export { Mailboxes, PhoneNumbers, Proxies, Webhooks } from "./account-resources";
export { Jobs, type FollowOptions, type JobEventsOptions } from "./jobs";
export type { IdempotentOptions, RequestOptions } from "./transport";
export {
  AuthsvcError,
  ConflictError,
  IdempotencyMismatchError,
  InvalidRequestError,
  LoginFailedError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServiceError,
  UnauthorizedError,
} from "./errors";
export { ERROR_CODES, ERROR_STATUS, isErrorCode, type ErrorCode } from "./generated/error-codes";
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookVerificationFailure,
} from "./webhook-signature";
export { toPlaywrightStorageState } from "./handoff/playwright-storage-state";
export {
  toCdpSetCookies,
  toPuppeteerCookieData,
  toPuppeteerCookies,
  type CdpCookieParam,
  type PuppeteerCookieData,
} from "./handoff/puppeteer-cookies";
export { toNetscapeCookieJar } from "./handoff/netscape-cookie-jar";
export { cookieHeaderFor } from "./handoff/cookie-header";
export type { SessionLike } from "./handoff/session-cookies";
export { ROUTES, type OperationId } from "./routes";
export * from "./types";
