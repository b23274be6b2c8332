export { AuthJobs } from "./auth-jobs";
export type { JobDeps } from "./job-deps";
export type { StartJob } from "./start-job";
export { JobNotRunnable, JobTakenOver, type OpenedJob } from "./open-job";
export type { JobFailure, LoginSuccess, SignupSuccess } from "./finish-job";
export { sessionExpiresAt, sessionLifetime, type SessionLifetime } from "./session-lifetime";
export { storedLoginIdentity, type SessionIdentity } from "./session-keys";
export { originFingerprint } from "./session-keys";
export { replayJob, ReplayRefused, REFUSED_SECRET_CODES, type ReplayOptions, type ReplayRefusalCode } from "./replay-job";
