import { Jobs, type FollowOptions } from "./jobs";
import { Mailboxes, PhoneNumbers, Proxies, Webhooks } from "./account-resources";
import { ROUTES } from "./routes";
import { Transport, type IdempotentOptions, type RequestOptions, type Route, type TransportOptions } from "./transport";
import type {
  CredentialPage,
  CredentialResource,
  EntryLinkRequest,
  EntryLinkResource,
  JobEvent,
  JobResource,
  LoginRequest,
  RefreshRequest,
  SessionResponse,
  SignupRequest,
  SignupResponse,
  StoredCredentialSession,
  VerifyRequest,
  PasskeyEnrolRequest,
  PasskeyEnrolment,
  PasskeyImport,
  PasskeyImported,
} from "./types";

export type AuthClientOptions = TransportOptions;

/** Options of the calls that may run a browser job (login, signup, refresh, verify). */
export interface JobCallOptions extends IdempotentOptions {
  /** `Prefer: wait=N`: let the service wait at most N seconds before answering 202 (the SDK then follows the job). */
  wait?: number;
  /** `Prefer: respond-async`: the service answers 202 at once and the SDK follows the job's progress. */
  respondAsync?: boolean;
  /** Each progress event of the job, when the answer was 202. */
  onProgress?: (event: JobEvent) => void;
  /** The job waits for a person (`allowHandoff: true`): see `FollowOptions.onNeedsInput`. */
  onNeedsInput?: FollowOptions["onNeedsInput"];
  /** Poll interval when the event stream is unavailable, in ms. */
  pollIntervalMs?: number;
}

/**
 * The authsvc API. Each call returns the API's own answer body, or throws an `AuthsvcError` carrying its
 * code (or a `NetworkError` when the service could not be reached after the retries).
 */
export class AuthClient {
  readonly jobs: Jobs;
  readonly credentials: Credentials;
  readonly mailboxes: Mailboxes;
  readonly phoneNumbers: PhoneNumbers;
  readonly webhooks: Webhooks;
  readonly proxies: Proxies;
  private readonly transport: Transport;

  constructor(options: AuthClientOptions) {
    this.transport = new Transport(options);
    this.jobs = new Jobs(this.transport);
    const runJob = <T>(route: Route, body: unknown, params: Record<string, string> | undefined, opts: JobCallOptions) =>
      runJobCall<T>(this.transport, this.jobs, route, body, params, opts);
    this.credentials = new Credentials(this.transport, runJob);
    this.mailboxes = new Mailboxes(this.transport);
    this.phoneNumbers = new PhoneNumbers(this.transport);
    this.webhooks = new Webhooks(this.transport);
    this.proxies = new Proxies(this.transport);
  }

  /** POST /v1/login: signs in to the site (or answers from the session cache) and returns the session. */
  login(body: LoginRequest, options: JobCallOptions = {}): Promise<SessionResponse> {
    return runJobCall(this.transport, this.jobs, ROUTES.login, body, undefined, options);
  }

  /** POST /v1/signup: creates the account (confirming its email), returns the session and the stored credential. */
  signup(body: SignupRequest, options: JobCallOptions = {}): Promise<SignupResponse> {
    return runJobCall(this.transport, this.jobs, ROUTES.signup, body, undefined, options);
  }

  /** POST /v1/refresh: logs in again with a stored credential and replaces its cached session. */
  refresh(body: RefreshRequest, options: JobCallOptions = {}): Promise<StoredCredentialSession> {
    return runJobCall(this.transport, this.jobs, ROUTES.refresh, body, undefined, options);
  }
}

type RunJob = <T>(
  route: Route,
  body: unknown,
  params: Record<string, string> | undefined,
  options: JobCallOptions,
) => Promise<T>;

/** A call that may answer 202: the job is followed to its end, so the caller gets what a 200 would have given. */
async function runJobCall<T>(
  transport: Transport,
  jobs: Jobs,
  route: Route,
  body: unknown,
  params: Record<string, string> | undefined,
  options: JobCallOptions,
): Promise<T> {
  const prefer = [
    options.respondAsync ? "respond-async" : "",
    options.wait !== undefined ? `wait=${Math.max(0, Math.floor(options.wait))}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  // A caller who lets the service wait longer than our timeout must not be cut off first.
  const timeoutMs =
    options.timeoutMs ?? (options.wait !== undefined ? Math.max(90_000, options.wait * 1000 + 15_000) : undefined);
  const answer = await transport.send<T | JobResource<T>>({
    route,
    params,
    body,
    headers: prefer ? { prefer } : undefined,
    options: { ...options, timeoutMs },
  });
  if (answer.status !== 202) return answer.body as T;
  const follow: FollowOptions = {
    signal: options.signal,
    onProgress: options.onProgress,
    onNeedsInput: options.onNeedsInput,
    pollIntervalMs: options.pollIntervalMs,
  };
  return jobs.wait<T>((answer.body as JobResource<T>).jobId, follow);
}

export class Credentials {
  constructor(
    private readonly transport: Transport,
    private readonly runJob: RunJob,
  ) {}

  /**
   * One page (100, newest first by creation), of one `site` (an origin) or `username` when given; pass
   * `before` from the previous page's `next` (or use `iterate`).
   */
  async list(
    query: { before?: string; site?: string; username?: string } = {},
    options: RequestOptions = {},
  ): Promise<CredentialPage> {
    return (await this.transport.send<CredentialPage>({ route: ROUTES.listCredentials, query, options })).body;
  }

  /** Every credential, page after page. */
  async *iterate(options: RequestOptions = {}): AsyncGenerator<CredentialResource> {
    let before: string | undefined;
    for (;;) {
      const page = await this.list({ before }, options);
      yield* page.credentials;
      before = page.next ? (new URL(page.next, "http://x").searchParams.get("before") ?? undefined) : undefined;
      if (!before) return;
    }
  }

  async get(id: string, options: RequestOptions = {}): Promise<CredentialResource> {
    return (await this.transport.send<CredentialResource>({ route: ROUTES.getCredential, params: { id }, options }))
      .body;
  }

  /** Deletes the credential, its stored secret and its sessions (cached ones too). */
  async delete(id: string, options: RequestOptions = {}): Promise<void> {
    await this.transport.send({ route: ROUTES.deleteCredential, params: { id }, options });
  }

  /**
   * Forgets the site's memory of the credential's browser (the long-lived cookies it set to trust the
   * device): its next login is a new device's, and the site may ask its second factor again.
   */
  async forgetDevice(id: string, options: RequestOptions = {}): Promise<void> {
    await this.transport.send({ route: ROUTES.forgetCredentialDevice, params: { id }, options });
  }

  /**
   * A link to a hosted page where the end user types their own credentials for the site: the service signs
   * in once with them and stores the credential (`credential.created`, then `getEntryLink` shows its id).
   * You never see the password.
   */
  async entryLink(body: EntryLinkRequest, options: IdempotentOptions = {}): Promise<EntryLinkResource> {
    return (await this.transport.send<EntryLinkResource>({ route: ROUTES.createEntryLink, body, options })).body;
  }

  /** An entry link's state: `open`, `validating`, `needs_input`, `created` (with `credentialId`), `failed` or `expired`. */
  async getEntryLink(id: string, options: RequestOptions = {}): Promise<EntryLinkResource> {
    return (await this.transport.send<EntryLinkResource>({ route: ROUTES.getEntryLink, params: { id }, options })).body;
  }

  /** Confirms the email of an account a signup left pending (a link, a code, or the one in our inbox), then signs in. */
  verify(id: string, body: VerifyRequest = {}, options: JobCallOptions = {}): Promise<StoredCredentialSession> {
    return this.runJob(ROUTES.verifyCredential, body, { id }, options);
  }

  /**
   * Adds a passkey to the credential's account: signs in with its stored secret, then adds one on the site's
   * settings page (`settingsUrl`, or found). Later logins (`login_method: "passkey"`) and refreshes use it.
   * A call that had to wait for its job answers with the session only; `get(id).methods` lists the passkey.
   */
  enrolPasskey(id: string, body: PasskeyEnrolRequest = {}, options: JobCallOptions = {}): Promise<PasskeyEnrolment> {
    return this.runJob(ROUTES.enrolPasskey, body, { id }, options);
  }

  /**
   * Keeps a passkey you already hold for the credential — its fields, or a Credential Exchange Format passkey
   * (`{ cxf }`) — sealed as an enrolled one; no browser runs. Later `login_method: "passkey"` logins and
   * refreshes sign in with it. The same passkey (or another of the same account) again is a `conflict`.
   */
  async importPasskey(id: string, passkey: PasskeyImport, options: IdempotentOptions = {}): Promise<PasskeyImported> {
    return (
      await this.transport.send<PasskeyImported>({
        route: ROUTES.enrolPasskey,
        params: { id },
        body: { import: passkey },
        options,
      })
    ).body;
  }

  /** Forgets one of the credential's passkeys here (the site still lists it: remove it there too). */
  async deletePasskey(id: string, passkeyId: string, options: RequestOptions = {}): Promise<void> {
    await this.transport.send({ route: ROUTES.deletePasskey, params: { id, passkeyId }, options });
  }
}
