export * from "./error-codes";
export * from "./session";
export * from "./login-request";
export { compileValidator, toFieldErrors, type Validator } from "./validate";
export { openApiDocument } from "./openapi";
export * from "./inboxes";
export * from "./credentials";
export * from "./webhooks";
export * from "./signup-request";
