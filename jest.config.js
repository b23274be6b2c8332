// Two projects: fast unit/integration tests next to the code, and end-to-end tests that start the real
// gateway, worker, Chromium and fixture sites once (apps/*/test). Both run against real Postgres and Redis.
const transform = {
  "^.+\\.ts$": ["@swc/jest", { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "commonjs" } }],
  // ESM-only packages (the OpenID Connect fixtures' provider and client): Node's require() loads them, jest's
  // module system does not, so jest turns them into CommonJS like our own code.
  "/node_modules/(oidc-provider|openid-client|oauth4webapi|jose)/.+\\.js$": ["@swc/jest", { jsc: { parser: { syntax: "ecmascript" }, target: "es2022" }, module: { type: "commonjs" } }],
};
// node_modules is not transformed, except those ESM-only packages (pnpm keeps them under .pnpm/<name>@<version>/).
const transformIgnorePatterns = ["/node_modules/(?!(\\.pnpm/)?(oidc-provider|openid-client|oauth4webapi|jose)[@/])"];

module.exports = {
  // Browser logins take seconds; speed is measured by `pnpm bench`, not by test timeouts.
  testTimeout: 60000,
  reporters: ["default", "<rootDir>/scripts/jest-summary-reporter.cjs"],
  projects: [
    {
      displayName: "unit",
      testMatch: ["<rootDir>/{apps,packages}/*/src/**/*.test.ts"],
      transform,
      transformIgnorePatterns,
      testEnvironment: "node",
    },
    {
      displayName: "e2e",
      testMatch: ["<rootDir>/apps/*/test/**/*.test.ts", "<rootDir>/packages/sdk/test/**/*.test.ts"],
      transform,
      transformIgnorePatterns,
      testEnvironment: "node",
      globalSetup: "<rootDir>/packages/devstack/src/jest/e2e-setup.ts",
      globalTeardown: "<rootDir>/packages/devstack/src/jest/e2e-teardown.ts",
    },
  ],
};
