import type { TargetGuard } from "@authsvc/egress";
import type { Config } from "@authsvc/config";
import {
  jobEventsPath,
  type EntryLinkRequest,
  type EntryLinkResource,
  type EmailInboxRef,
  type InputAnswerRequest,
  type JobResource,
  type PasskeyEnrolRequest,
  type SessionResponse,
  type VerifyRequest,
} from "@authsvc/contracts";
import type { Database, InputAnswer } from "@authsvc/db";
import type { AuthJobs, StartJob } from "@authsvc/jobs";
import type { JobWaiter, PrefetchedEntry } from "@authsvc/queue";
import { ApiError } from "../http/api-error";
import { allocateMailbox } from "../inboxes/allocate-mailbox";
import { createEntryLink } from "./entry-links";
import { emailInbox, inboxFor } from "./login-inbox";
import type { LoginCommand } from "./parse-login-request";
import { signupJobInput, type SignupCommand } from "./parse-signup-request";
import { enrolPasskeyLogin, refreshLogin, verifyLogin } from "./stored-credential-logins";
import { checkEgress, checkTarget } from "./target-checks";

export interface AuthServiceDeps {
  config: Config;
  db: Database;
  jobs: AuthJobs;
  waiter: JobWaiter;
  guard: TargetGuard;
}

/** One API request that may run a job: how long it waits, and the job an idempotent retry joins. */
export interface AuthCall {
  requestId: string;
  waitMs: number;
  /** Set by the idempotency layer (see http/idempotency). */
  idempotent?: IdempotentCall;
}

export interface IdempotentCall {
  /** A retry of a request that started this job: answer from it, and start (or touch) nothing. */
  joinJob?: string;
  /** The first request's job, as soon as it started: a retry that arrives meanwhile joins it. */
  started?: (jobId: string) => void;
}

export type AuthAnswer =
  | { kind: "session"; session: SessionResponse; source: "cache" | "browser"; jobId?: string }
  | { kind: "pending"; job: JobResource };

/**
 * What the API's auth endpoints do before and after a job runs: check the target, resolve the inbox,
 * serve a cached session, build the job's input, start the job (AuthJobs) and wait for its answer. What a
 * stored credential's logins check is stored-credential-logins'; the inbox a login reads, login-inbox's.
 */
export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  /** The Redis key of the session a login with `useCache` would be served from (read ahead with its rate-limit token). */
  cachedSessionKey(orgId: string, cmd: LoginCommand): string {
    return this.deps.jobs.cachedSessionKey(orgId, cmd);
  }

  async login(
    orgId: string,
    cmd: LoginCommand,
    call: AuthCall,
    kind: "login" | "refresh" | "verify" | "passkey_enrol" = "login",
    prefetched?: PrefetchedEntry,
  ): Promise<AuthAnswer> {
    const { config, db, jobs, guard } = this.deps;
    if (call.idempotent?.joinJob) return this.answer(orgId, call.idempotent.joinJob, call.waitMs);
    if (cmd.useCache) {
      const cached = await jobs.cachedSession(orgId, cmd, prefetched);
      if (cached) return { kind: "session", session: cached, source: "cache" };
    }

    // Checked only when a browser is about to go there: a cache hit contacts nobody.
    await checkTarget(guard, cmd.loginUrl);
    const inbox = await inboxFor(db, config.mail.domain, orgId, cmd);
    await checkEgress(db, orgId, cmd.egress);
    const fields = {
      email: cmd.email,
      phone: cmd.phone,
      password: cmd.password,
      additionalFields: cmd.additionalFields,
      totpSecret: cmd.totpSecret,
      inbox,
      awaitsPassword: cmd.awaitsPassword,
      provider: cmd.provider,
      egress: cmd.egress,
    };
    // The request's schema and `inboxFor` made sure an inbox method has its inbox.
    const input = (
      cmd.confirmation
        ? { ...fields, kind: "verify", method: "password", confirmation: cmd.confirmation }
        : cmd.enrol
          ? { ...fields, kind: "passkey_enrol", method: cmd.method, enrol: cmd.enrol }
          : { ...fields, kind: "login", method: cmd.method }
    ) as StartJob["input"];
    const jobId = await jobs.start({
      orgId,
      kind,
      method: input.method,
      loginUrl: cmd.loginUrl,
      useCache: cmd.useCache,
      allowHandoff: cmd.allowHandoff === true,
      // An enrolment never joins a login of the same account (it would end without a passkey), nor one a login.
      fingerprint: kind === "passkey_enrol" ? `${jobs.loginKey(orgId, cmd)}:passkey_enrol` : jobs.loginKey(orgId, cmd),
      requestId: call.requestId,
      credential: { collectionExternalId: cmd.collectionId, username: cmd.identifier },
      region: cmd.region,
      input,
    });
    return this.started(orgId, jobId, call);
  }

  /**
   * Creates an account on the site (a job of kind `signup`): its confirmation mail is read in one of the
   * org's mailboxes (`cred.email`, or one allocated for it). Identical concurrent signups share one job.
   */
  async signup(orgId: string, cmd: SignupCommand, call: AuthCall): Promise<AuthAnswer> {
    const { db, guard, config, jobs } = this.deps;
    // Before anything is allocated or checked: the retry of a signup joins the job its first request started.
    if (call.idempotent?.joinJob) return this.answer(orgId, call.idempotent.joinJob, call.waitMs);
    for (const url of new Set([cmd.signupUrl, cmd.inviteLink ?? cmd.signupUrl])) await checkTarget(guard, url);
    let email = cmd.email;
    let inbox: EmailInboxRef | undefined;
    if (cmd.allocateMailbox) {
      const mailbox = await allocateMailbox(db, orgId, config.mail.domain, { label: `signup ${cmd.siteOrigin}` });
      email = mailbox.address;
      inbox = { kind: "email", mailboxId: mailbox.id, address: email };
    } else if (email) {
      // The caller's own address is read through the forwarding inbox; without one, a site that asks for no
      // confirmation just works and one that mails a confirmation leaves the account pending_verification.
      inbox = (await emailInbox(db, config.mail.domain, orgId, email)) ?? undefined;
    }
    const fingerprint = jobs.signupKey(orgId, {
      collectionId: cmd.collectionId,
      siteOrigin: cmd.siteOrigin,
      method: cmd.method,
      fields: {
        url: cmd.signupUrl,
        email,
        username: cmd.username,
        password: cmd.password,
        name: cmd.name,
        invite: cmd.inviteToken ?? cmd.inviteLink,
        extra: cmd.additionalFields,
        provider: cmd.provider,
        totp: cmd.totpSecret,
        passkey: cmd.createPasskey,
      },
    });
    const jobId = await jobs.start({
      orgId,
      kind: "signup",
      method: cmd.method,
      loginUrl: cmd.signupUrl,
      useCache: false,
      allowHandoff: cmd.allowHandoff === true,
      fingerprint,
      requestId: call.requestId,
      // Known by its email until the site settles it (the username it accepted, when it has no email).
      credential: { collectionExternalId: cmd.collectionId, username: email ?? cmd.username },
      region: cmd.region,
      input: signupJobInput(cmd, email, inbox),
    });
    return this.started(orgId, jobId, call);
  }

  /** A job this request started (or joined): the idempotency layer learns it, then its answer is waited for. */
  private started(orgId: string, jobId: string, call: AuthCall): Promise<AuthAnswer> {
    call.idempotent?.started?.(jobId);
    return this.answer(orgId, jobId, call.waitMs);
  }

  /** Waits for a job up to `waitMs`: its session, its failure as the API's error, or 202 and the job. */
  private async answer(orgId: string, jobId: string, waitMs: number): Promise<AuthAnswer> {
    await this.deps.waiter.wait(jobId, waitMs);
    // A request that joined another's login may look before that request has written the job's record.
    const job = (await this.job(orgId, jobId)) ?? { jobId, status: "queued" as const, eventsUrl: jobEventsPath(jobId) };
    if (job.status === "succeeded" && job.result)
      return { kind: "session", session: job.result, source: "browser", jobId };
    if (job.status === "failed" && job.error) {
      const headers: Record<string, string> = { "X-Job-Id": jobId };
      if (job.error.credentialId) headers.Location = `/v1/credentials/${job.error.credentialId}`;
      throw new ApiError(job.error.code, job.error.message, job.error.details, headers, job.error.credentialId);
    }
    return { kind: "pending", job };
  }

  /**
   * Logs in again with a credential's stored secret (the last one that worked, with its TOTP secret or
   * inbox), as the same login it was (stored-credential-logins).
   */
  async refresh(
    orgId: string,
    credentialId: string,
    call: AuthCall,
    allowHandoff = false,
    region?: string,
  ): Promise<AuthAnswer> {
    if (call.idempotent?.joinJob) return this.answer(orgId, call.idempotent.joinJob, call.waitMs);
    const cmd = await refreshLogin(this.deps.db, orgId, credentialId, allowHandoff, region);
    return this.login(orgId, cmd, call, "refresh");
  }

  /** Adds a passkey to a credential's account: signs in with its stored secret, then adds one (stored-credential-logins). */
  async enrolPasskey(
    orgId: string,
    credentialId: string,
    given: PasskeyEnrolRequest,
    call: AuthCall,
  ): Promise<AuthAnswer> {
    if (call.idempotent?.joinJob) return this.answer(orgId, call.idempotent.joinJob, call.waitMs);
    const cmd = await enrolPasskeyLogin(this.deps.db, this.deps.guard, orgId, credentialId, given);
    return this.login(orgId, cmd, call, "passkey_enrol");
  }

  /** Confirms the email of an account a signup left unfinished, then logs in with its stored secret (stored-credential-logins). */
  async verify(orgId: string, credentialId: string, given: VerifyRequest, call: AuthCall): Promise<AuthAnswer> {
    // Before the checks: once its first request signed in, the credential would be refused as confirmed already.
    if (call.idempotent?.joinJob) return this.answer(orgId, call.idempotent.joinJob, call.waitMs);
    const cmd = await verifyLogin(this.deps.db, this.deps.guard, orgId, credentialId, given);
    return this.login(orgId, cmd, call, "verify");
  }

  /**
   * A person's answer to what a job of this org waits for: a code as typed (spaces and dashes left out), a
   * choice, an answer, or nothing ("look again").
   */
  answerInput(
    orgId: string,
    jobId: string,
    given: InputAnswerRequest,
  ): Promise<"taken" | "not_waiting" | "not_found" | { wrong: string }> {
    const answer: InputAnswer =
      given.code !== undefined
        ? { code: given.code.replace(/[\s-]/g, "") }
        : given.choice !== undefined
          ? { choice: given.choice }
          : given.answer !== undefined
            ? { answer: given.answer }
            : {};
    return this.deps.jobs.answerInput(orgId, jobId, answer);
  }

  /** A link to the hosted page where an end user types their own credentials for the site (entry-links). */
  createEntryLink(orgId: string, given: EntryLinkRequest): Promise<EntryLinkResource> {
    return createEntryLink(this.deps, orgId, given);
  }

  /** One of the org's entry links, its state following its latest sign-in; null for another org's. */
  async entryLink(orgId: string, linkId: string): Promise<EntryLinkResource | null> {
    const row = await this.deps.db.entryLinks.find(orgId, linkId);
    return row ? this.deps.jobs.viewEntryLink(row) : null;
  }

  /** A job of this org as the API shows it (AuthJobs.view). */
  job(orgId: string, jobId: string): Promise<JobResource | null> {
    return this.deps.jobs.view(orgId, jobId);
  }
}
