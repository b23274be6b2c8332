import type { Queue } from "bullmq";
import type { TargetGuard } from "@authsvc/egress";
import type { Config } from "@authsvc/config";
import { isErrorCode, loginPageOf, SUPPORTED_LOGIN_METHODS, type JobResource, type LoginMethod, type SessionResponse, type SignupAccount, type SignupResponse, type VerifyRequest } from "@authsvc/contracts";
import { newId } from "@authsvc/crypto";
import type { Database, NewAuthJob, SecretBundle } from "@authsvc/db";
import { enqueueLogin, flightTtlMs, loginFingerprint, originFingerprint, signupFingerprint, storedLoginIdentity, type AuthJobPayload, type JobWaiter, type SessionCache, type SingleFlight } from "@authsvc/queue";
import { ApiError } from "../http/api-error";
import type { LoginCommand } from "./parse-login-request";
import { sessionExpiresAt } from "../credentials/session-expires-at";
import { allocateMailbox } from "../inboxes/allocate-mailbox";
import type { SignupCommand } from "../signup/parse-signup-request";

export interface LoginServiceDeps {
  config: Config;
  db: Database;
  queue: Queue<AuthJobPayload>;
  waiter: JobWaiter;
  cache: SessionCache;
  flight: SingleFlight;
  guard: TargetGuard;
}

export type LoginAnswer =
  | { kind: "session"; session: SessionResponse; source: "cache" | "browser"; jobId?: string }
  | { kind: "pending"; job: JobResource };

export class LoginService {
  constructor(private readonly deps: LoginServiceDeps) {}


  /**
   * Our inbox for the site's code or link. The inbox methods need one of the org's mailboxes or phone
   * numbers, or the caller's own address forwarded to the org's forwarding inbox (400 otherwise); a password
   * login takes one when it has one, so a site that asks for an emailed code after the password gets it answered.
   */
  private async inboxFor(orgId: string, cmd: LoginCommand): Promise<SecretBundle["inbox"]> {
    const { db } = this.deps;
    if (cmd.method === "otp_sms" || (cmd.phone && cmd.method !== "otp_email" && cmd.method !== "magic_link")) {
      const phone = await db.phoneNumbers.findForOrg(orgId, cmd.phone!);
      if (phone) return { kind: "sms", phoneNumberId: phone.id, number: phone.number };
      if (cmd.method === "otp_sms") {
        throw ApiError.invalid([{ field: "/cred/phone", message: "is not one of this organization's phone numbers (POST /v1/phone-numbers)" }]);
      }
    }
    if (cmd.email) {
      const inbox = await this.emailInbox(orgId, cmd.email);
      if (inbox) return inbox;
      if (cmd.method === "otp_email" || cmd.method === "magic_link") {
        throw ApiError.invalid([
          {
            field: "/cred/email",
            message: `is neither one of this organization's mailboxes on ${this.deps.config.mail.domain} (POST /v1/mailboxes) nor forwarded to the service: set up forwarding from it to your forwarding inbox (GET /v1/mailboxes/forwarding)`,
          },
        ]);
      }
    }
    return undefined;
  }

  /**
   * Where mail to `email` is read: the org's mailbox of that address, or, for the caller's own address on
   * another domain, the org's forwarding inbox (only mail first sent to that address is read there). Null
   * when the org has no forwarding inbox; 400 for an address of our domain that is not this org's.
   */
  private async emailInbox(orgId: string, email: string): Promise<SecretBundle["inbox"] | null> {
    const { db, config } = this.deps;
    const address = email.toLowerCase();
    if (address.endsWith(`@${config.mail.domain}`)) {
      const mailbox = await db.mailboxes.findForOrg(orgId, address);
      // An address of our domain that is not this org's: its mail would reach someone else, or no one.
      if (!mailbox || mailbox.forwarding) throw ApiError.invalid([{ field: "/cred/email", message: `is not one of this organization's mailboxes on ${config.mail.domain} (POST /v1/mailboxes)` }]);
      return { kind: "email", mailboxId: mailbox.id, address };
    }
    const forwarding = await db.mailboxes.forwardingOf(orgId);
    return forwarding ? { kind: "email", mailboxId: forwarding.id, address, forwarded: true } : null;
  }

  async login(orgId: string, cmd: LoginCommand, waitMs: number, requestId: string, kind: "login" | "refresh" | "verify" = "login"): Promise<LoginAnswer> {
    const { cache, guard, config } = this.deps;
    const fp = loginFingerprint(config.crypto.fingerprintKey, orgId, cmd);
    if (cmd.useCache) {
      const cached = (await cache.get(orgId, fp)) ?? (await this.cachedByOrigin(orgId, cmd, fp));
      if (cached) return { kind: "session", session: cached, source: "cache" };
    }

    // Checked only when a browser is about to go there: a cache hit contacts nobody.
    const verdict = await guard.check(cmd.loginUrl);
    if (!verdict.allowed) throw new ApiError(verdict.code, `Target refused: ${verdict.reason}.`);
    const inbox = await this.inboxFor(orgId, cmd);
    const jobId = await this.startJob(orgId, fp, requestId, {
      kind,
      method: cmd.method,
      loginUrl: cmd.loginUrl,
      useCache: cmd.useCache,
      identity: { collectionExternalId: cmd.collectionId, username: cmd.identifier },
      input: {
        method: cmd.method,
        email: cmd.email,
        phone: cmd.phone,
        password: cmd.password,
        additionalFields: cmd.additionalFields,
        totpSecret: cmd.totpSecret,
        inbox,
        confirmation: cmd.confirmation,
        awaitsPassword: cmd.awaitsPassword,
      },
    });
    return this.answer(orgId, jobId, waitMs);
  }

  /**
   * A session cached before sessions were keyed by login page, under the origin's key: served (and copied
   * under the page's key) only when the job that cached it logged in on this same login page, since
   * another application of the origin may have cached it. Such entries end with their TTL.
   */
  private async cachedByOrigin(orgId: string, cmd: LoginCommand, fp: string): Promise<SessionResponse | null> {
    const { cache, db, config } = this.deps;
    const legacy = originFingerprint(config.crypto.fingerprintKey, orgId, cmd);
    const cached = await cache.get(orgId, legacy);
    if (!cached) return null;
    const loginUrl = await db.authJobs.succeededLoginUrl(orgId, legacy);
    if (!loginUrl || loginPageOf(loginUrl) !== cmd.loginPage) return null;
    const ttl = await cache.ttlSeconds(orgId, legacy);
    if (ttl > 0) await cache.set(orgId, fp, cached, ttl);
    return cached;
  }

  /**
   * Creates an account on the site (a job of kind `signup`): its confirmation mail is read in one of the
   * org's mailboxes (`cred.email`, or one allocated for it). Identical concurrent signups share one job.
   */
  async signup(orgId: string, cmd: SignupCommand, waitMs: number, requestId: string): Promise<LoginAnswer> {
    const { db, guard, config } = this.deps;
    for (const url of new Set([cmd.signupUrl, cmd.inviteLink ?? cmd.signupUrl])) {
      const verdict = await guard.check(url);
      if (!verdict.allowed) throw new ApiError(verdict.code, `Target refused: ${verdict.reason}.`);
    }
    let email = cmd.email;
    let inbox: SecretBundle["inbox"];
    if (cmd.allocateMailbox) {
      const mailbox = await allocateMailbox(db, orgId, config.mail.domain, { label: `signup ${cmd.siteOrigin}` });
      email = mailbox.address;
      inbox = { kind: "email", mailboxId: mailbox.id, address: email };
    } else if (email) {
      // The caller's own address is read through the forwarding inbox; without one, a site that asks for no
      // confirmation just works and one that mails a confirmation leaves the account pending_verification.
      inbox = (await this.emailInbox(orgId, email)) ?? undefined;
    }
    const fp = signupFingerprint(config.crypto.fingerprintKey, orgId, {
      collectionId: cmd.collectionId,
      siteOrigin: cmd.siteOrigin,
      method: cmd.method,
      fields: { url: cmd.signupUrl, email, username: cmd.username, password: cmd.password, name: cmd.name, invite: cmd.inviteToken ?? cmd.inviteLink, extra: cmd.additionalFields },
    });
    const jobId = await this.startJob(orgId, fp, requestId, {
      kind: "signup",
      method: cmd.method,
      loginUrl: cmd.signupUrl,
      useCache: false,
      // Known by its email until the site settles it (the username it accepted, when it has no email).
      identity: { collectionExternalId: cmd.collectionId, username: email ?? cmd.username },
      input: {
        method: cmd.method,
        email,
        password: cmd.password,
        additionalFields: cmd.additionalFields,
        inbox,
        signup: { username: cmd.username, name: cmd.name, inviteToken: cmd.inviteToken, inviteLink: cmd.inviteLink },
      },
    });
    return this.answer(orgId, jobId, waitMs);
  }

  /**
   * Claims the single-flight key and, when this request won it, records the job (with its credential,
   * created on first use) and queues it. Returns the job that does the work: ours, or the one we joined.
   */
  private async startJob(
    orgId: string,
    fp: string,
    requestId: string,
    job: Pick<NewAuthJob, "kind" | "method" | "loginUrl" | "useCache" | "input"> & { identity: { collectionExternalId?: string; username?: string } },
  ): Promise<string> {
    const { db, flight, queue, config } = this.deps;
    const ownId = newId("job");
    const jobId = (await flight.claim(orgId, fp, ownId, flightTtlMs(config))) ?? ownId;
    if (jobId !== ownId) return jobId;
    let recorded = false;
    try {
      // A signup with no email yet (an invitation that shows it) is named by its job until it is known.
      const credential = await db.credentials.ensure(
        { orgId, ...job.identity, username: job.identity.username ?? `signup:${ownId}`, loginUrl: job.loginUrl },
        { anyPageOfSite: job.kind === "signup" },
      );
      const { identity: _identity, ...fields } = job;
      await db.authJobs.create({ orgId, credentialId: credential.id, fingerprint: fp, requestId, ...fields }, ownId);
      recorded = true;
      await enqueueLogin(queue, { authJobId: ownId, orgId });
    } catch (err) {
      // Nobody must wait for a job that will never run: end its record and free the claim.
      if (recorded) await db.authJobs.fail(ownId, "service_unavailable", "the login could not be queued").catch(() => undefined);
      await flight.release(orgId, fp, ownId).catch(() => undefined);
      throw err;
    }
    return ownId;
  }

  /** Waits for a job up to `waitMs`: its session, its failure as the API's error, or 202 and the job. */
  private async answer(orgId: string, jobId: string, waitMs: number): Promise<LoginAnswer> {
    await this.deps.waiter.wait(jobId, waitMs);
    // A request that joined another's login may look before that request has written the job's record.
    const job = (await this.job(orgId, jobId)) ?? { jobId, status: "queued" as const };
    if (job.status === "succeeded" && job.result) return { kind: "session", session: job.result, source: "browser", jobId };
    if (job.status === "failed" && job.error) {
      const code = isErrorCode(job.error.code) ? job.error.code : "internal_error";
      const headers: Record<string, string> = { "X-Job-Id": jobId };
      if (job.error.credentialId) headers.Location = `/v1/credentials/${job.error.credentialId}`;
      throw new ApiError(code, job.error.message, undefined, headers, job.error.credentialId);
    }
    return { kind: "pending", job };
  }

  /**
   * Logs in again with a credential's stored secret (the last one that worked, with its TOTP secret or
   * inbox), as the same login it was: the fresh session replaces the cached one under the same key.
   */
  async refresh(orgId: string, credentialId: string, waitMs: number, requestId: string): Promise<LoginAnswer> {
    const { db } = this.deps;
    const [row, secret] = await Promise.all([db.credentials.findMetadata(orgId, credentialId), db.credentials.secret(orgId, credentialId)]);
    if (!row) throw new ApiError("not_found", "No such credential.");
    if (!secret) throw new ApiError("no_stored_secret", "This credential never logged in successfully; there is no stored secret to refresh with.");
    if (secret.awaitsPassword) {
      // Its site has not told the account's password yet: a login would type none and be refused.
      throw new ApiError("no_stored_secret", `The site has not sent this account's password or the link to set it yet; POST /v1/credentials/${credentialId}/verify with that link, or with {} once it reached your inbox.`);
    }
    const method = (SUPPORTED_LOGIN_METHODS as readonly string[]).includes(secret.method ?? "") ? (secret.method as LoginMethod) : "password";
    const identity = storedLoginIdentity({ loginPage: row.loginPage, username: row.username, collectionExternalId: row.collection?.externalId }, secret);
    const cmd: LoginCommand = { ...identity, method, loginUrl: row.loginUrl, useCache: false };
    return this.login(orgId, cmd, waitMs, requestId, "refresh");
  }

  /**
   * Confirms the email of an account a signup left unfinished, then logs in with its stored secret like a
   * refresh: with the caller's link (checked as a target) or code, else with the confirmation link our inbox
   * received for it since the credential was made.
   */
  async verify(orgId: string, credentialId: string, given: VerifyRequest, waitMs: number, requestId: string): Promise<LoginAnswer> {
    const { db, guard } = this.deps;
    const [row, secret] = await Promise.all([db.credentials.findMetadata(orgId, credentialId), db.credentials.secret(orgId, credentialId)]);
    if (!row) throw new ApiError("not_found", "No such credential.");
    if (row.lastLoginAt) throw new ApiError("conflict", "This credential has signed in already, so its email needs no confirmation; POST /v1/refresh signs in again.");
    if (!secret) throw new ApiError("conflict", "This credential keeps no password of an account a signup created; there is nothing to confirm.");
    if (secret.awaitsPassword && given.code) {
      throw new ApiError("conflict", "This account waits for the password the site mails, or its link to set one, not for a code: send that link, or {} once the mail reached your inbox.");
    }
    if (given.link) {
      const verdict = await guard.check(given.link);
      if (!verdict.allowed) throw new ApiError(verdict.code, `Target refused: ${verdict.reason}.`);
    }
    const confirmation = given.link ? { link: given.link } : given.code ? { code: given.code } : { inboxSince: row.createdAt.toISOString() };
    const identity = storedLoginIdentity({ loginPage: row.loginPage, username: row.username, collectionExternalId: row.collection?.externalId }, secret);
    return this.login(orgId, { ...identity, method: "password", loginUrl: row.loginUrl, useCache: false, confirmation, awaitsPassword: secret.awaitsPassword }, waitMs, requestId, "verify");
  }

  /** A job of this org as the API shows it, with its session once it succeeded; null when there is none. */
  async job(orgId: string, jobId: string): Promise<JobResource | null> {
    const row = await this.deps.db.authJobs.find(orgId, jobId);
    if (!row) return null;
    const resource: JobResource = { jobId: row.id, status: row.status };
    if (row.status === "succeeded" && row.sessionId) {
      const found = await this.deps.db.sessions.findState(orgId, row.sessionId);
      // A signup's result names the credential it stored and the account it created (spec §2.2).
      if (found && row.kind === "signup") {
        const expiresAt = sessionExpiresAt(found.state);
        resource.result = { ...found.state, credentialId: row.credentialId, ...(expiresAt ? { expiresAt } : {}), account: row.account as unknown as SignupAccount } as SignupResponse;
      } else if (found) resource.result = found.state;
    }
    if (row.status === "failed") {
      resource.error = { code: row.errorCode ?? "internal_error", message: row.errorMessage ?? "" };
      // A signup that sent its form and failed may have created the account: name where its password is.
      if (row.kind === "signup" && row.submittedAt && (await this.deps.db.credentials.keepsUnfinishedAccount(orgId, row.credentialId))) {
        resource.error.credentialId = row.credentialId;
      }
    }
    return resource;
  }
}
