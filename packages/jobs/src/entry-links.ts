import { createHmac, timingSafeEqual } from "node:crypto";
import { ENTRY_LINK_MAX_TRIES, loginPageOf, type EntryLinkResource } from "@authsvc/contracts";
import type { Database } from "@authsvc/db";
import { emitEvent } from "./job-events";
import type { JobDeps } from "./job-deps";
import { loginFingerprint } from "./session-keys";
import { startJob } from "./start-job";
import { viewJob } from "./view-job";

/**
 * Credentials an end user types themselves, in one place: the link's token and address, what the API shows
 * of a link, the sign-in its hosted page starts with what was typed, and the link settled when that sign-in
 * stored a credential. What the person typed lives only in the job's encrypted input and, once it signed
 * in, in the credential's encrypted secret.
 */

type EntryLinkRow = NonNullable<Awaited<ReturnType<Database["entryLinks"]["find"]>>>;

/** `<linkId>.<HMAC>`: unguessable, checked again from the service's key by any replica. */
export function entryLinkToken(key: Buffer, linkId: string): string {
  return `${linkId}.${macOf(key, linkId)}`;
}

/** The link a token names, when it is one of ours; null for anything else. */
export function readEntryLinkToken(key: Buffer, token: string): string | null {
  const m = /^(elink_[0-9A-Za-z]{22})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  return timingSafeEqual(Buffer.from(macOf(key, m[1]!)), Buffer.from(m[2]!)) ? m[1]! : null;
}

/** The hosted page's address on the dashboard (DASHBOARD_URL). */
export function entryLinkUrl(dashboardUrl: string, key: Buffer, linkId: string): string {
  return `${dashboardUrl.replace(/\/+$/, "")}/enter/${entryLinkToken(key, linkId)}`;
}

function macOf(key: Buffer, linkId: string): string {
  return createHmac("sha256", key).update(`entry-link\0${linkId}`).digest("base64url");
}

/** A link as the API shows it: its state follows its latest sign-in. */
export async function viewEntryLink(
  deps: Pick<JobDeps, "db" | "config">,
  read: EntryLinkRow,
): Promise<EntryLinkResource> {
  let link = read;
  const job = link.jobId ? await viewJob(deps, link.orgId, link.jobId) : null;
  // Its sign-in succeeded after the link was read: the same transaction settled the link.
  if (job?.status === "succeeded" && !link.createdCredentialAt)
    link = (await deps.db.entryLinks.find(link.orgId, link.id)) ?? link;
  const expired = link.expiresAt.getTime() <= Date.now();
  let status: EntryLinkResource["status"];
  // Spent once a credential was stored, even when that credential was deleted since.
  if (link.createdCredentialAt) status = "created";
  else if (job && (job.status === "queued" || job.status === "running" || job.status === "needs_input") && !expired)
    status = job.status === "needs_input" ? "needs_input" : "validating";
  else if (expired) status = "expired";
  else if (link.tries >= ENTRY_LINK_MAX_TRIES) status = "failed";
  else status = "open";
  const lastError =
    !link.createdCredentialAt && job?.status === "failed" && job.error
      ? { code: job.error.code, message: job.error.message }
      : null;
  return {
    linkId: link.id,
    url: entryLinkUrl(deps.config.dashboard.url ?? "", deps.config.crypto.fingerprintKey, link.id),
    site: link.siteOrigin,
    loginUrl: link.loginUrl,
    collectionId: link.collectionExternalId,
    loginMethod: "password",
    status,
    createdAt: link.createdAt.toISOString(),
    expiresAt: link.expiresAt.toISOString(),
    tries: link.tries,
    maxTries: ENTRY_LINK_MAX_TRIES,
    jobId: link.jobId,
    ...(status === "needs_input" && job?.input ? { input: job.input } : {}),
    credentialId: link.credentialId,
    lastError,
  };
}

/** What the end user typed on the hosted page. */
export interface TypedCredential {
  username: string;
  password: string;
  totpSecret?: string;
}

/**
 * Starts the link's sign-in with what the end user typed: a login job that may hand a step to them
 * (`allowHandoff`), never served from the cache. Null when the link takes no more sign-ins (spent,
 * expired, out of tries, or one still runs).
 */
export async function startEntrySignIn(
  deps: Pick<JobDeps, "config" | "db" | "authQueue" | "flight" | "progress" | "log" | "regions">,
  link: EntryLinkRow,
  typed: TypedCredential,
): Promise<string | null> {
  if (!(await deps.db.entryLinks.takeTry(link.id, ENTRY_LINK_MAX_TRIES, link.jobId))) return null;
  const identity = {
    collectionId: link.collectionExternalId ?? undefined,
    loginPage: loginPageOf(link.loginUrl),
    method: "password",
    identifier: typed.username,
    password: typed.password,
    totpSecret: typed.totpSecret,
  };
  const jobId = await startJob(deps, {
    orgId: link.orgId,
    kind: "login",
    method: "password",
    loginUrl: link.loginUrl,
    useCache: false,
    allowHandoff: true,
    fingerprint: loginFingerprint(deps.config.crypto.fingerprintKey, link.orgId, identity),
    credential: { collectionExternalId: link.collectionExternalId ?? undefined, username: typed.username },
    input: {
      kind: "login",
      method: "password",
      password: typed.password,
      ...(typed.totpSecret ? { totpSecret: typed.totpSecret } : {}),
    },
  });
  await deps.db.entryLinks.attachJob(link.id, jobId);
  return jobId;
}

/** The org hears of the credential a link's sign-in stored (after the job's success landed). */
export async function tellEntryLinkSettled(
  deps: Pick<JobDeps, "db" | "webhookQueue" | "log">,
  link: EntryLinkRow,
  job: { id: string; credential: { id: string; siteOrigin: string; username: string } },
): Promise<void> {
  const data = {
    credentialId: job.credential.id,
    site: job.credential.siteOrigin,
    username: job.credential.username,
    jobId: job.id,
    linkId: link.id,
    collectionId: link.collectionExternalId,
  };
  await emitEvent(deps.db, deps.webhookQueue, link.orgId, "credential.created", data).catch((err: unknown) =>
    deps.log.warn({ err: String(err), linkId: link.id }, "credential.created event not queued"),
  );
}
