import type { TargetGuard } from "@authsvc/egress";
import type { Config } from "@authsvc/config";
import {
  ENTRY_LINK_DEFAULT_EXPIRES_IN,
  isErrorCode,
  jobEventsPath,
  type EntryLinkRequest,
  type EntryLinkResource,
  type EmailInboxRef,
  type InboxRef,
  type InputAnswerRequest,
  type JobResource,
  type PasskeyEnrolRequest,
  type SessionResponse,
  type VerifyRequest,
} from "@authsvc/contracts";
import type { Database, InputAnswer } from "@authsvc/db";
import { refreshSecret, storedLoginIdentity, type AuthJobs, type StartJob } from "@authsvc/jobs";
import type { JobWaiter, PrefetchedEntry } from "@authsvc/queue";
import { ApiError } from "../http/api-error";
import type { LoginCommand } from "./parse-login-request";
import { allocateMailbox } from "../inboxes/allocate-mailbox";
import { signupJobInput, type SignupCommand } from "./parse-signup-request";

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
 * serve a cached session, build the job's input, start the job (AuthJobs) and wait for its answer.
 */
export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  /**
   * Our inbox for the site's code or link. The inbox methods need one of the org's mailboxes or phone
   * numbers, or the caller's own address forwarded to the org's forwarding inbox (400 otherwise); a password
   * login takes one when it has one, so a site that asks for an emailed code after the password gets it answered.
   */
  private async inboxFor(orgId: string, cmd: LoginCommand): Promise<InboxRef | undefined> {
    const { db } = this.deps;
    if (cmd.method === "otp_sms" || (cmd.phone && cmd.method !== "otp_email" && cmd.method !== "magic_link")) {
      const phone = await db.phoneNumbers.findForOrg(orgId, cmd.phone!);
      if (phone) return { kind: "sms", phoneNumberId: phone.id, number: phone.number };
      if (cmd.method === "otp_sms") {
        throw ApiError.invalid([
          { field: "/cred/phone", message: "is not one of this organization's phone numbers (POST /v1/phone-numbers)" },
        ]);
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
  private async emailInbox(orgId: string, email: string): Promise<EmailInboxRef | null> {
    const { db, config } = this.deps;
    const address = email.toLowerCase();
    if (address.endsWith(`@${config.mail.domain}`)) {
      const mailbox = await db.mailboxes.findForOrg(orgId, address);
      // An address of our domain that is not this org's: its mail would reach someone else, or no one.
      if (!mailbox || mailbox.forwarding)
        throw ApiError.invalid([
          {
            field: "/cred/email",
            message: `is not one of this organization's mailboxes on ${config.mail.domain} (POST /v1/mailboxes)`,
          },
        ]);
      return { kind: "email", mailboxId: mailbox.id, address };
    }
    const forwarding = await db.mailboxes.forwardingOf(orgId);
    return forwarding ? { kind: "email", mailboxId: forwarding.id, address, forwarded: true } : null;
  }

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
    const { jobs, guard } = this.deps;
    if (call.idempotent?.joinJob) return this.answer(orgId, call.idempotent.joinJob, call.waitMs);
    if (cmd.useCache) {
      const cached = await jobs.cachedSession(orgId, cmd, prefetched);
      if (cached) return { kind: "session", session: cached, source: "cache" };
    }

    // Checked only when a browser is about to go there: a cache hit contacts nobody.
    const verdict = await guard.check(cmd.loginUrl);
    if (!verdict.allowed) throw new ApiError(verdict.code, `Target refused: ${verdict.reason}.`);
    const inbox = await this.inboxFor(orgId, cmd);
    await this.checkEgress(orgId, cmd.egress);
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

  /** The proxy or pool a request names must be the organization's. */
  private async checkEgress(orgId: string, egress: LoginCommand["egress"]): Promise<void> {
    if (egress?.proxy && !(await this.deps.db.proxies.find(orgId, egress.proxy))) {
      throw ApiError.invalid([
        { field: "/proxy", message: "is not a proxy of this organization (GET /v1/proxies lists them)" },
      ]);
    }
    if (egress?.proxyPool && !(await this.deps.db.proxies.hasPool(orgId, egress.proxyPool))) {
      throw ApiError.invalid([
        { field: "/proxyPool", message: "names no proxy of this organization (a pool is the proxies of one label)" },
      ]);
    }
  }

  /**
   * Creates an account on the site (a job of kind `signup`): its confirmation mail is read in one of the
   * org's mailboxes (`cred.email`, or one allocated for it). Identical concurrent signups share one job.
   */
  async signup(orgId: string, cmd: SignupCommand, call: AuthCall): Promise<AuthAnswer> {
    const { db, guard, config, jobs } = this.deps;
    // Before anything is allocated or checked: the retry of a signup joins the job its first request started.
    if (call.idempotent?.joinJob) return this.answer(orgId, call.idempotent.joinJob, call.waitMs);
    for (const url of new Set([cmd.signupUrl, cmd.inviteLink ?? cmd.signupUrl])) {
      const verdict = await guard.check(url);
      if (!verdict.allowed) throw new ApiError(verdict.code, `Target refused: ${verdict.reason}.`);
    }
    let email = cmd.email;
    let inbox: EmailInboxRef | undefined;
    if (cmd.allocateMailbox) {
      const mailbox = await allocateMailbox(db, orgId, config.mail.domain, { label: `signup ${cmd.siteOrigin}` });
      email = mailbox.address;
      inbox = { kind: "email", mailboxId: mailbox.id, address: email };
    } else if (email) {
      // The caller's own address is read through the forwarding inbox; without one, a site that asks for no
      // confirmation just works and one that mails a confirmation leaves the account pending_verification.
      inbox = (await this.emailInbox(orgId, email)) ?? undefined;
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
      const code = isErrorCode(job.error.code) ? job.error.code : "internal_error";
      const headers: Record<string, string> = { "X-Job-Id": jobId };
      if (job.error.credentialId) headers.Location = `/v1/credentials/${job.error.credentialId}`;
      throw new ApiError(code, job.error.message, job.error.details, headers, job.error.credentialId);
    }
    return { kind: "pending", job };
  }

  /**
   * Logs in again with a credential's stored secret (the last one that worked, with its TOTP secret or
   * inbox), as the same login it was: the fresh session replaces the cached one under the same key.
   */
  async refresh(
    orgId: string,
    credentialId: string,
    call: AuthCall,
    allowHandoff = false,
    region?: string,
  ): Promise<AuthAnswer> {
    const { db } = this.deps;
    if (call.idempotent?.joinJob) return this.answer(orgId, call.idempotent.joinJob, call.waitMs);
    const [row, secret] = await Promise.all([
      db.credentials.findMetadata(orgId, credentialId),
      db.credentials.secret(orgId, credentialId),
    ]);
    if (!row) throw new ApiError("not_found", "No such credential.");
    if (!secret)
      throw new ApiError(
        "no_stored_secret",
        "This credential never logged in successfully; there is no stored secret to refresh with.",
      );
    if (secret.awaitsPassword) {
      // Its site has not told the account's password yet: a login would type none and be refused.
      throw new ApiError(
        "no_stored_secret",
        `The site has not sent this account's password or the link to set it yet; POST /v1/credentials/${credentialId}/verify with that link, or with {} once it reached your inbox.`,
      );
    }
    const use = await refreshSecret(db, orgId, credentialId, secret);
    const identity = storedLoginIdentity(
      { loginPage: row.loginPage, username: row.username, collectionExternalId: row.collection?.externalId },
      use,
    );
    const cmd: LoginCommand = {
      ...identity,
      method: use.method,
      loginUrl: row.loginUrl,
      useCache: false,
      allowHandoff,
      region,
    };
    return this.login(orgId, cmd, call, "refresh");
  }

  /**
   * Adds a passkey to a credential's account (a job of kind `passkey_enrol`): signs in with its stored
   * secret as a refresh does (its own method, a provider's button too; never a passkey), then adds one on
   * the site's settings page.
   */
  async enrolPasskey(
    orgId: string,
    credentialId: string,
    given: PasskeyEnrolRequest,
    call: AuthCall,
  ): Promise<AuthAnswer> {
    const { db, guard } = this.deps;
    if (call.idempotent?.joinJob) return this.answer(orgId, call.idempotent.joinJob, call.waitMs);
    const [row, secret] = await Promise.all([
      db.credentials.findMetadata(orgId, credentialId),
      db.credentials.secret(orgId, credentialId),
    ]);
    if (!row) throw new ApiError("not_found", "No such credential.");
    if (!secret || secret.awaitsPassword)
      throw new ApiError(
        "no_stored_secret",
        "This credential keeps no secret it signed in with; log in with it first (POST /v1/login), then add a passkey.",
      );
    if (given.settingsUrl) {
      if (new URL(given.settingsUrl).origin !== row.siteOrigin)
        throw ApiError.invalid([
          { field: "/settingsUrl", message: `must be a page of the credential's site (${row.siteOrigin})` },
        ]);
      const verdict = await guard.check(given.settingsUrl);
      if (!verdict.allowed) throw new ApiError(verdict.code, `Target refused: ${verdict.reason}.`);
    }
    const identity = storedLoginIdentity(
      { loginPage: row.loginPage, username: row.username, collectionExternalId: row.collection?.externalId },
      secret,
    );
    const cmd: LoginCommand = {
      ...identity,
      method: secret.method,
      loginUrl: row.loginUrl,
      useCache: false,
      allowHandoff: given.allowHandoff === true,
      enrol: { settingsUrl: given.settingsUrl },
    };
    return this.login(orgId, cmd, call, "passkey_enrol");
  }

  /**
   * Confirms the email of an account a signup left unfinished, then logs in with its stored secret like a
   * refresh: with the caller's link (checked as a target) or code, else with the confirmation link our inbox
   * received for it since the credential was made.
   */
  async verify(orgId: string, credentialId: string, given: VerifyRequest, call: AuthCall): Promise<AuthAnswer> {
    const { db, guard } = this.deps;
    // Before the checks: once its first request signed in, the credential would be refused as confirmed already.
    if (call.idempotent?.joinJob) return this.answer(orgId, call.idempotent.joinJob, call.waitMs);
    const [row, secret] = await Promise.all([
      db.credentials.findMetadata(orgId, credentialId),
      db.credentials.secret(orgId, credentialId),
    ]);
    if (!row) throw new ApiError("not_found", "No such credential.");
    if (row.lastLoginAt)
      throw new ApiError(
        "conflict",
        "This credential has signed in already, so its email needs no confirmation; POST /v1/refresh signs in again.",
      );
    if (!secret)
      throw new ApiError(
        "conflict",
        "This credential keeps no password of an account a signup created; there is nothing to confirm.",
      );
    if (secret.awaitsPassword && given.code) {
      throw new ApiError(
        "conflict",
        "This account waits for the password the site mails, or its link to set one, not for a code: send that link, or {} once the mail reached your inbox.",
      );
    }
    if (given.link) {
      const verdict = await guard.check(given.link);
      if (!verdict.allowed) throw new ApiError(verdict.code, `Target refused: ${verdict.reason}.`);
    }
    const confirmation = given.link
      ? { link: given.link }
      : given.code
        ? { code: given.code }
        : { inboxSince: row.createdAt.toISOString() };
    // `allowHandoff` is how the job runs, not what confirms it.
    const identity = storedLoginIdentity(
      { loginPage: row.loginPage, username: row.username, collectionExternalId: row.collection?.externalId },
      secret,
    );
    return this.login(
      orgId,
      {
        ...identity,
        method: "password",
        loginUrl: row.loginUrl,
        useCache: false,
        confirmation,
        awaitsPassword: secret.awaitsPassword,
        allowHandoff: given.allowHandoff === true,
      },
      call,
      "verify",
    );
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

  /**
   * A link to the hosted page where an end user types their own credentials for the site (checked as a
   * target now, and again when its sign-in runs). It needs the dashboard's public address, which serves it.
   */
  async createEntryLink(orgId: string, given: EntryLinkRequest): Promise<EntryLinkResource> {
    const { config, db, guard, jobs } = this.deps;
    if (!config.dashboard.url)
      throw new ApiError(
        "method_not_supported",
        "Entry links need the dashboard's public address, which serves their page (DASHBOARD_URL).",
      );
    let url: URL;
    try {
      url = new URL(given.domain);
    } catch {
      throw ApiError.invalid([{ field: "/domain", message: "is not a valid URL" }]);
    }
    if (url.username || url.password)
      throw ApiError.invalid([
        { field: "/domain", message: "must not contain credentials: the end user types them on the link's page" },
      ]);
    const verdict = await guard.check(url.toString());
    if (!verdict.allowed) throw new ApiError(verdict.code, `Target refused: ${verdict.reason}.`);
    const row = await db.entryLinks.create({
      orgId,
      collectionExternalId: given.collectionId,
      loginUrl: url.toString(),
      siteOrigin: url.origin,
      method: given.login_method ?? "password",
      expiresAt: new Date(Date.now() + (given.expiresIn ?? ENTRY_LINK_DEFAULT_EXPIRES_IN) * 1000),
    });
    return jobs.viewEntryLink(row);
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
