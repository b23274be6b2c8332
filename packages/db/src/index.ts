export { Database } from "./database";
export { isDatabaseUnreachable, whileUnreachable } from "./while-unreachable";
export { applyMigrations, ensureDatabase, readMigrations, MIGRATIONS_DIR } from "./migrate";
export type { CredentialIdentity } from "./repositories/credentials";
export type { AuthenticatedKey } from "./repositories/api-keys";
export type { NewAuthJob } from "./repositories/auth-job-lifecycle";
export type { InputAnswer, PendingInput } from "./repositories/auth-job-handoff";
export {
  allows,
  ENDED_STATUSES,
  isHeldByRun,
  JOB_STATUSES,
  JOB_TRANSITIONS,
  OPEN_STATUSES,
  type Holder,
  type JobRecordStatus,
  type TransitionName,
  type Writer,
} from "./repositories/job-transitions";
export { isUniqueViolation } from "./prisma-client";
export {
  AddressTakenError,
  baseAddress,
  type InboundContent,
  type InboundMessage,
  type InboxRef,
  type ListedMessage,
} from "./repositories/inboxes";
export type { ProviderAccountKey } from "./repositories/provider-sessions";
export type { JobScreenshotImage } from "./repositories/job-screenshots";
export { EmailTakenError, normalizeEmail, type MembershipRole } from "./repositories/dashboard-users";
export type { SignedInSession } from "./repositories/dashboard-sessions";
export type { AcceptOutcome } from "./repositories/invitations";
export type { JobCursor, JobSearch } from "./repositories/job-listings";
export { STATS_HORIZON_HOURS, statsWindows, type StatsScope, type StatsWindows } from "./repositories/job-stats";
export type { SiteStats } from "./repositories/job-stats-sites";
export {
  CODE_RISE,
  codeRose,
  SITE_DROP,
  successDropped,
  successRate,
  type SuccessCount,
} from "./repositories/job-stats-trends";
export { DURATION_BUCKETS_MS, durationPercentile } from "./repositories/duration-buckets";
export { ProxyGoneError, type ProxyChoice, type ProxyRow, type RunProxy } from "./repositories/proxies";
export type { ListedPasskey, PasskeyKey } from "./repositories/passkeys";
