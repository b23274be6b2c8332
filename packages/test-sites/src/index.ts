export { startTestSites, createTestSitesApp, DEMO_USER, type TestSites } from "./server";
export { Accounts } from "./accounts";
export { LOGIN_CASES, type LoginCase } from "./cases";
