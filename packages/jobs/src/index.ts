export { AuthJobs } from "./auth-jobs";
export type { JobDeps } from "./job-deps";
export type { StartJob } from "./start-job";
export { gateCaps, RegionUnavailable } from "./start-job";
export { JobNotRunnable, JobTakenOver, type OpenedJob } from "./open-job";
export type { LoginSuccess, SignupSuccess } from "./succeed-job";
export type { JobFailure } from "./fail-job";
export { sessionExpiresAt, sessionLifetime, type SessionLifetime } from "./session-lifetime";
export { refreshSecret, storedLoginIdentity, type SessionIdentity } from "./session-keys";
export { originFingerprint } from "./session-keys";
export {
  replayJob,
  ReplayRefused,
  REFUSED_SECRET_CODES,
  type ReplayOptions,
  type ReplayRefusalCode,
} from "./replay-job";
export { checkSession, type SessionHealth, type SessionCheckTarget } from "./session-check";
export { handoffToken, handoffUrl, readHandoffToken } from "./handoff-token";
export { entryLinkUrl, readEntryLinkToken, startEntrySignIn, viewEntryLink, type TypedCredential } from "./entry-links";
