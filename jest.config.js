// Three projects: integration tests next to the code (real Postgres, Redis and Chromium, no stack of
// services; hence the name, not "unit"); end-to-end tests against the real gateway,
// worker, Chromium and fixture sites started once per jest process (apps/*/test); and end-to-end tests that
// start stacks of their own. All run against real Postgres and Redis.
const transform = {
  "^.+\\.ts$": [
    "@swc/jest",
    { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "commonjs" } },
  ],
  // ESM-only packages (the OpenID Connect fixtures' provider and client): Node's require() loads them, jest's
  // module system does not, so jest turns them into CommonJS like our own code.
  "/node_modules/(oidc-provider|openid-client|oauth4webapi|jose)/.+\\.js$": [
    "@swc/jest",
    { jsc: { parser: { syntax: "ecmascript" }, target: "es2022" }, module: { type: "commonjs" } },
  ],
};
// node_modules is not transformed, except those ESM-only packages (pnpm keeps them under .pnpm/<name>@<version>/).
const transformIgnorePatterns = ["/node_modules/(?!(\\.pnpm/)?(oidc-provider|openid-client|oauth4webapi|jose)[@/])"];

const setupFiles = ["<rootDir>/scripts/jest-quiet-oidc-warning.cjs"];
// Tests that start stacks of their own (a Redis or PostgreSQL they kill, a worker they stop): they need no shared
// stack, and run beside the others.
const OWN_STACKS = [
  "<rootDir>/apps/worker/test/faults/**/*.test.ts",
  "<rootDir>/apps/worker/test/{concurrency-caps,graceful-shutdown,redis-cluster,whole-browser}.test.ts",
];

module.exports = {
  // Browser logins take seconds; speed is measured by `pnpm bench`, not by test timeouts. A test's timeout is
  // only the bound on a test that is going to fail: generous, for a busy 2-core machine.
  testTimeout: 300_000,
  reporters: ["default", "<rootDir>/scripts/jest-summary-reporter.cjs"],
  testSequencer: "<rootDir>/scripts/jest-sequencer.cjs",
  projects: [
    {
      displayName: "integration",
      // (infra/: checks of the deployment files against the code, such as the Grafana dashboard's metrics.)
      testMatch: ["<rootDir>/{apps,packages}/*/src/**/*.test.ts", "<rootDir>/infra/**/*.test.ts"],
      transform,
      transformIgnorePatterns,
      setupFiles,
      testEnvironment: "node",
    },
    {
      // Against one shared stack per jest process: scripts/run-tests.sh runs the project as shards
      // (E2E_SHARD), each with a stack and a database of its own.
      displayName: "e2e",
      testMatch: ["<rootDir>/apps/*/test/**/*.test.ts", "<rootDir>/packages/sdk/test/**/*.test.ts"],
      testPathIgnorePatterns: [
        "/node_modules/",
        "<rootDir>/apps/worker/test/faults/",
        "<rootDir>/apps/worker/test/(concurrency-caps|graceful-shutdown|redis-cluster|whole-browser)\\.test\\.ts$",
      ],
      transform,
      transformIgnorePatterns,
      setupFiles,
      testEnvironment: "node",
      globalSetup: "<rootDir>/packages/devstack/src/jest/e2e-setup.ts",
      globalTeardown: "<rootDir>/packages/devstack/src/jest/e2e-teardown.ts",
    },
    {
      displayName: "stacks",
      testMatch: OWN_STACKS,
      transform,
      transformIgnorePatterns,
      setupFiles,
      testEnvironment: "node",
    },
  ],
};
