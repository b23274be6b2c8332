export { createRedis, redisReady, type RedisRole } from "./redis-connections";
export { AUTH_QUEUE, AUTH_JOB, createAuthQueue, enqueueAuthJob, requeueAuthJob, authJobOptions, type AuthJobPayload, type RetryPolicy } from "./auth-queue";
export { JobWaiter } from "./job-waiter";
export { SessionCache, type PrefetchedEntry } from "./session-cache";
export { SingleFlight, flightTtlMs } from "./single-flight";
export { KEEPALIVE_JOB, MAINTENANCE_QUEUE, RETENTION_JOB, scheduleRetention } from "./maintenance-queue";
export { InboxEvents, inboxChannel, notifyInbox } from "./inbox-events";
export { WEBHOOK_QUEUE, createWebhookQueue, queueDeliveries, type WebhookDeliveryPayload } from "./webhook-queue";
export { announceKeyRevocation, currentRevocationMark, revocationMarkKey } from "./api-key-revocations";
