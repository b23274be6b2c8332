import {
  compileValidator,
  signupRequestSchema,
  type EmailInboxRef,
  type FieldError,
  type SignupJobInput,
  type SignupMethod,
  type SignupRequest,
} from "@authsvc/contracts";
import { parseTotpSecret, TotpSecretError } from "@authsvc/crypto";
import { ApiError } from "../http/api-error";

const validate = compileValidator(signupRequestSchema);

/**
 * A signup request, typed by its method as its validation leaves it: an account of the site's own
 * (`email`, `invitation`), or one made through a provider's button with a provider account (`oauth`).
 */
export type SignupCommand = SignupCommandFields & (SiteAccount | ProviderAccount);

interface SignupCommandFields {
  /** The signup page (`domain`). */
  signupUrl: string;
  /** An invitation link: opened instead of the signup page, and kept only encrypted (it is a credential). */
  inviteLink?: string;
  /** The site the credential belongs to: the origin of `domain`. */
  siteOrigin: string;
  username?: string;
  name?: string;
  /** A token to type into the page's invitation field (an invitation link is `signupUrl` instead). */
  inviteToken?: string;
  collectionId?: string;
  additionalFields?: Record<string, string | number | boolean>;
  /** A person may finish a step the service cannot (the job waits in needs_input). */
  allowHandoff?: boolean;
  /** The worker region the request names (the credential keeps it). */
  region?: string;
}

/** `email`, `invitation`: the site's own account; its email is one of the org's mailboxes (or one allocated). */
interface SiteAccount {
  method: Exclude<SignupMethod, "oauth">;
  email?: string;
  password?: string;
  allocateMailbox: boolean;
  /** Add a passkey once the new account signed in. */
  createPasskey: boolean;
  /** None: a provider account's, read alike off either kind of command. */
  provider?: undefined;
  totpSecret?: undefined;
}

/** `oauth`: `email` and `password` (both required) and `totpSecret` are the provider account's. */
interface ProviderAccount {
  method: "oauth";
  email: string;
  password: string;
  /** `google`, `github`, or `cred.provider` as given. */
  provider: string;
  totpSecret?: string;
  allocateMailbox: false;
  createPasskey: false;
}

function httpUrl(value: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw ApiError.invalid([{ field, message: "is not a valid URL" }]);
  }
  if (!/^https?:$/.test(url.protocol)) throw ApiError.invalid([{ field, message: "must be an http or https URL" }]);
  if (url.username || url.password)
    throw ApiError.invalid([{ field, message: "must not contain credentials; send them in cred" }]);
  return url;
}

/** Validates a POST /v1/signup body and resolves its rules (method support, invitation, email source). */
export function parseSignupRequest(body: unknown): SignupCommand {
  const checked = validate(body);
  if (!checked.ok) throw ApiError.invalid(checked.errors);
  const req = checked.value;
  const method = req.signup_method;
  const cred = req.cred ?? {};
  const problems: FieldError[] = [];
  // The account's part by its method: a provider named where none belongs, or none for `oauth`, is answered
  // alone, before anything else is checked.
  const account = method === "oauth" ? providerAccount(req, problems) : siteAccount(req, method, problems);
  if (method === "invitation" && !req.invite_token)
    problems.push({
      field: "/invite_token",
      message: "is required for signup_method invitation (the invitation link or its token)",
    });
  if (method !== "invitation" && req.invite_token)
    problems.push({ field: "/invite_token", message: "is only for signup_method invitation" });
  if (cred.email && req.allocateMailbox)
    problems.push({
      field: "/allocateMailbox",
      message: "send cred.email (one of your mailboxes) or allocateMailbox, not both",
    });
  if (method === "email" && !cred.email && !req.allocateMailbox) {
    problems.push({
      field: "/cred/email",
      message:
        "is required for signup_method email: one of your mailboxes (POST /v1/mailboxes), or send allocateMailbox: true",
    });
  }
  if (problems.length || !account) throw ApiError.invalid(problems);

  const domain = httpUrl(req.domain, "/domain");
  // An invitation link is where the browser starts; a bare token is typed into the page at `domain`.
  const inviteLink =
    req.invite_token && /^https?:\/\//i.test(req.invite_token) ? httpUrl(req.invite_token, "/invite_token") : null;
  return {
    ...account,
    signupUrl: domain.toString(),
    inviteLink: inviteLink?.toString(),
    siteOrigin: domain.origin,
    username: cred.username,
    name: cred.name,
    inviteToken: inviteLink ? undefined : req.invite_token,
    collectionId: req.collectionId,
    additionalFields: req.additionalFields,
    allowHandoff: req.allowHandoff === true,
    region: req.region,
  };
}

const ONLY_OAUTH = "is only for signup_method oauth";

/** `email`, `invitation`: no provider is named, and a TOTP secret (a provider account's) is refused. */
function siteAccount(req: SignupRequest, method: SiteAccount["method"], problems: FieldError[]): SiteAccount {
  if (req.provider !== undefined) throw ApiError.invalid([{ field: "/provider", message: ONLY_OAUTH }]);
  if (req.cred?.provider !== undefined) throw ApiError.invalid([{ field: "/cred/provider", message: ONLY_OAUTH }]);
  const cred = req.cred ?? {};
  if (cred.totpSecret !== undefined)
    problems.push({
      field: "/cred/totpSecret",
      message: "is only for signup_method oauth (the provider account's second factor)",
    });
  return {
    method,
    email: cred.email?.toLowerCase(),
    password: cred.password,
    allocateMailbox: req.allocateMailbox === true,
    createPasskey: req.createPasskey === true,
  };
}

/**
 * `oauth`: the provider, named once (`provider`: google, github; or `cred.provider`), and the provider
 * account, whose email and password are required. Null when it lacks one (told in `problems`).
 */
function providerAccount(req: SignupRequest, problems: FieldError[]): ProviderAccount | null {
  const cred = req.cred ?? {};
  if (req.provider !== undefined && cred.provider !== undefined)
    throw ApiError.invalid([{ field: "/cred/provider", message: "send provider or cred.provider, not both" }]);
  const provider = req.provider ?? cred.provider?.trim();
  if (provider === undefined)
    throw ApiError.invalid([
      {
        field: "/provider",
        message:
          "is required for signup_method oauth: google or github, or any provider's issuer URL or button label in cred.provider",
      },
    ]);
  // The account is the provider's: its email signs in there, and the site takes it from the provider.
  if (!cred.email)
    problems.push({
      field: "/cred/email",
      message: "is required for signup_method oauth: the provider account's email",
    });
  if (!cred.password)
    problems.push({
      field: "/cred/password",
      message: "is required for signup_method oauth: the provider account's password",
    });
  if (req.allocateMailbox)
    problems.push({
      field: "/allocateMailbox",
      message: "is not for signup_method oauth: the account's email is the provider account's",
    });
  if (cred.totpSecret !== undefined) {
    try {
      parseTotpSecret(cred.totpSecret);
    } catch (err) {
      if (!(err instanceof TotpSecretError)) throw err;
      problems.push({ field: "/cred/totpSecret", message: err.message });
    }
  }
  if (req.createPasskey)
    problems.push({
      field: "/createPasskey",
      message: "is not for signup_method oauth yet: the account signs in through its provider",
    });
  if (!cred.email || !cred.password) return null;
  return {
    method: "oauth",
    email: cred.email.toLowerCase(),
    password: cred.password,
    provider,
    totpSecret: cred.totpSecret,
    allocateMailbox: false,
    createPasskey: false,
  };
}

/**
 * The job's input for a signup, typed by its method. `email` and `inbox` are where the site's mail is read
 * (`cred.email`, or the mailbox allocated for it); an OAuth signup's email is its provider account's.
 */
export function signupJobInput(
  cmd: SignupCommand,
  email: string | undefined,
  inbox: EmailInboxRef | undefined,
): SignupJobInput {
  const fields = {
    kind: "signup" as const,
    additionalFields: cmd.additionalFields,
    inbox,
    signup: { username: cmd.username, name: cmd.name, inviteToken: cmd.inviteToken, inviteLink: cmd.inviteLink },
  };
  if (cmd.method === "oauth") {
    const { method, password, provider, totpSecret } = cmd;
    return { ...fields, method, email: cmd.email, password, provider, totpSecret };
  }
  return {
    ...fields,
    method: cmd.method,
    email,
    password: cmd.password,
    createPasskey: cmd.createPasskey || undefined,
  };
}
