export { startTestSites, createTestSitesApp, DEMO_USER, type TestSites } from "./server";
export { Accounts } from "./accounts";
export { EMPTY_FIELD_REFUSAL, LOGIN_CASES, SENT_CODE_CASES, type LoginCase } from "./cases";
export { ACCOUNT_PHONE } from "./cases/person-steps";
export { SIGNUP_CASES, SignupRegistry, type SignupRecord } from "./signup";
export { Outbox, SITE_SENDER, SMS_SENDER, type OutboxConfig } from "./outbox";
export type { Delivery } from "./accounts";
export { IDB_SESSION } from "./sites/indexeddb-token";
export { Gates } from "./sites/held-login";
export { PATH_APPS, type PathApp } from "./sites/path-apps";
export { startCaptchaProvider, type CaptchaProvider, type ProviderBehaviour } from "./captcha-provider";
export {
  startOAuthSites,
  ACME_USERS,
  OAUTH_SITES,
  ACME_MESSAGES,
  SITE_MESSAGES,
  type OAuthSites,
  type OAuthSiteKey,
  type AcmeUserInput,
} from "./oauth";
export {
  startOAuthHosts,
  OAUTH_HOSTS_USERS,
  GOOGLE_HOST,
  GITHUB_HOST,
  GOOGLE_MESSAGES,
  GITHUB_MESSAGES,
  SITE_MESSAGES as FABRIKAM_MESSAGES,
  FIXTURE_TLS_SPKI,
  type OAuthHosts,
  type OAuthProviderFixture,
} from "./oauth-hosts";
export { SiteDns } from "./site-dns";
export { expectCaseSignedIn, expectGreeted } from "./signed-in";
export { DKIM_SELECTOR, SITES_HOST_NAME } from "./outbox";
export { PROXY_PASSWORD, PROXY_USER, startFixtureProxies, type FixtureProxies } from "./fixture-proxies";
export type { SeenBrowser } from "./cases/browser-seen";
