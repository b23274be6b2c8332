export { Database } from "./database";
export { applyMigrations, ensureDatabase, readMigrations, MIGRATIONS_DIR } from "./migrate";
export type { CredentialIdentity } from "./repositories/credentials";
export type { AuthenticatedKey } from "./repositories/api-keys";
export type { NewAuthJob } from "./repositories/auth-jobs";
export { AddressTakenError, baseAddress, type InboundContent, type InboundMessage, type InboxRef, type ListedMessage } from "./repositories/inboxes";
export type { ProviderAccountKey } from "./repositories/provider-sessions";
export type { JobScreenshotImage } from "./repositories/job-screenshots";
