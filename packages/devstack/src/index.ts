export { startStack, STACK_START_BOUND_MS, type Stack, type StackOptions } from "./stack";
export { freePort } from "./ports";
export { startOwnPostgres, startOwnRedis, type OwnPostgres, type OwnRedis } from "./fault-services";
export { testStackEnv, freshTestDatabase, TEST_BROWSER_MODE, POSTGRES_URL, REDIS_URL } from "./test-env";
export { recreateDatabase, deleteRedisPrefix } from "./reset-database";
export { REPO_ROOT, DATA_DIR } from "./repo-root";
export * from "./e2e/api-client";
// Waiting for a state the product records (a job's end in BullMQ, settled webhook deliveries), never for a pause.
export * from "./e2e/waits";
export { recordPastJobs, type PastJob } from "./e2e/job-history";
export { runScript } from "./run-script";
// The flags every headless Chromium here runs with (the worker's, the dashboard tests' and the benchmarks').
export { CHROMIUM_ARGS } from "@authsvc/browser";
export { startRedisCluster, type OwnRedisCluster, type ClusterNode } from "./redis-cluster";
