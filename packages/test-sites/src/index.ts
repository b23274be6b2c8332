export { startTestSites, createTestSitesApp, DEMO_USER, type TestSites } from "./server";
export { Accounts } from "./accounts";
export { LOGIN_CASES, SENT_CODE_CASES, type LoginCase } from "./cases";
export { SIGNUP_CASES, SignupRegistry, type SignupRecord } from "./signup";
export { Outbox, SITE_SENDER, SMS_SENDER, type OutboxConfig } from "./outbox";
export type { Delivery } from "./accounts";
export { IDB_SESSION } from "./sites/indexeddb-token";
export { PATH_APPS, type PathApp } from "./sites/path-apps";
export { startCaptchaProvider, type CaptchaProvider, type ProviderBehaviour } from "./captcha-provider";
