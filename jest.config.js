// Two projects: fast unit/integration tests next to the code, and end-to-end tests that start the real
// gateway, worker, Chromium and fixture sites once (apps/*/test). Both run against real Postgres and Redis.
const transform = {
  "^.+\\.ts$": ["@swc/jest", { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "commonjs" } }],
};

module.exports = {
  // Browser logins take seconds; speed is measured by `pnpm bench`, not by test timeouts.
  testTimeout: 60000,
  reporters: ["default", "<rootDir>/scripts/jest-summary-reporter.cjs"],
  projects: [
    {
      displayName: "unit",
      testMatch: ["<rootDir>/{apps,packages}/*/src/**/*.test.ts"],
      transform,
      testEnvironment: "node",
    },
    {
      displayName: "e2e",
      testMatch: ["<rootDir>/apps/*/test/**/*.test.ts"],
      transform,
      testEnvironment: "node",
      globalSetup: "<rootDir>/packages/devstack/src/jest/e2e-setup.ts",
      globalTeardown: "<rootDir>/packages/devstack/src/jest/e2e-teardown.ts",
    },
  ],
};
