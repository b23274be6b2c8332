export {
  createRedis,
  isRedisUnavailable,
  queueConnection,
  ridingFailover,
  redisDependency,
  redisReady,
  type RedisClient,
  type RedisErrorLog,
  type RedisRole,
} from "./redis-connections";
export { orgKey, prefixOfQueue, queuePrefix } from "./redis-keys";
export {
  AUTH_QUEUE,
  AUTH_JOB,
  authQueueName,
  regionQueue,
  closeAuthQueues,
  createAuthQueue,
  enqueueAuthJob,
  removeEarlierRun,
  requeueAuthJob,
  authJobOptions,
  type AuthJobPayload,
  type RetryPolicy,
} from "./auth-queue";
export { JobWaiter } from "./job-waiter";
export { SessionCache, type CachedEntry, type PrefetchedEntry } from "./session-cache";
export { SingleFlight, flightTtlMs } from "./single-flight";
export {
  JOB_STATS_JOB,
  SITE_STATS_JOB,
  KEEPALIVE_JOB,
  MAINTENANCE_QUEUE,
  RETENTION_JOB,
  SWEEP_JOB,
  createMaintenanceQueue,
  MAINTENANCE_TASKS,
  maintenanceTaskOf,
  UnknownMaintenanceTask,
  scheduleMaintenance,
  type MaintenanceSchedule,
  type MaintenanceTask,
} from "./maintenance-queue";
export { InboxEvents, inboxChannel, notifyInbox, jobInputChannel, notifyJobInput } from "./inbox-events";
export { WEBHOOK_QUEUE, createWebhookQueue, queueDeliveries, type WebhookDeliveryPayload } from "./webhook-queue";
export {
  JobGate,
  jobGateOf,
  gateSite,
  DEFAULT_GATE_TIMING,
  type GateCaps,
  type GateSlot,
  type GateTiming,
} from "./job-gate";
export { announceKeyRevocation, currentRevocationMark, revocationMarkKey } from "./api-key-revocations";
export { PubSubWakeups, type Wakeup } from "./pubsub-wakeups";
export {
  JobProgress,
  JobEventFeed,
  jobProgressOf,
  isEventPosition,
  isFinalEvent,
  type JobEventFields,
  type StoredJobEvent,
  type FollowOptions,
} from "./job-progress";
export {
  HandoffRelay,
  handoffChannels,
  LIVE_KEYS,
  type LiveFrame,
  type LiveInput,
  type LiveKey,
  type ToPage,
} from "./handoff-relay";
export { WorkerRegions, workerRegionsOf, DEFAULT_REGION_ANNOUNCING, type RegionAnnouncing } from "./worker-regions";
