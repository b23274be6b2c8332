import { compileValidator, signupRequestSchema, type SignupMethod } from "@authsvc/contracts";
import { parseTotpSecret, TotpSecretError } from "@authsvc/crypto";
import { ApiError } from "../http/api-error";

const validate = compileValidator(signupRequestSchema);

export interface SignupCommand {
  method: SignupMethod;
  /** Add a passkey once the new account signed in. */
  createPasskey?: boolean;
  /** The signup page (`domain`). */
  signupUrl: string;
  /** An invitation link: opened instead of the signup page, and kept only encrypted (it is a credential). */
  inviteLink?: string;
  /** The site the credential belongs to: the origin of `domain`. */
  siteOrigin: string;
  email?: string;
  username?: string;
  password?: string;
  name?: string;
  /** A token to type into the page's invitation field (an invitation link is `signupUrl` instead). */
  inviteToken?: string;
  collectionId?: string;
  additionalFields?: Record<string, string | number | boolean>;
  allocateMailbox: boolean;
  /** `oauth`: the provider (`google`, `github`, or `cred.provider` as given); `email` and `password` are the provider account's. */
  provider?: string;
  totpSecret?: string;
  /** A person may finish a step the service cannot (the job waits in needs_input). */
  allowHandoff?: boolean;
  /** The worker region the request names (the credential keeps it). */
  region?: string;
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
  // The request's shape is checked before whether its method runs yet, so a caller can build against it now.
  const provider = oauthProviderProblem(method, req.provider, req.cred?.provider);
  if (provider) throw ApiError.invalid([provider]);
  const cred = req.cred ?? {};
  const problems = [];
  if (method === "oauth") {
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
  } else if (cred.totpSecret !== undefined) {
    problems.push({
      field: "/cred/totpSecret",
      message: "is only for signup_method oauth (the provider account's second factor)",
    });
  }
  if (cred.totpSecret !== undefined && method === "oauth") {
    try {
      parseTotpSecret(cred.totpSecret);
    } catch (err) {
      if (!(err instanceof TotpSecretError)) throw err;
      problems.push({ field: "/cred/totpSecret", message: err.message });
    }
  }
  if (req.createPasskey && method === "oauth")
    problems.push({
      field: "/createPasskey",
      message: "is not for signup_method oauth yet: the account signs in through its provider",
    });
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
  if (problems.length) throw ApiError.invalid(problems);

  const domain = httpUrl(req.domain, "/domain");
  // An invitation link is where the browser starts; a bare token is typed into the page at `domain`.
  const inviteLink =
    req.invite_token && /^https?:\/\//i.test(req.invite_token) ? httpUrl(req.invite_token, "/invite_token") : null;
  return {
    method,
    signupUrl: domain.toString(),
    inviteLink: inviteLink?.toString(),
    siteOrigin: domain.origin,
    email: cred.email?.toLowerCase(),
    username: cred.username,
    password: cred.password,
    name: cred.name,
    inviteToken: inviteLink ? undefined : req.invite_token,
    collectionId: req.collectionId,
    additionalFields: req.additionalFields,
    allocateMailbox: req.allocateMailbox === true,
    provider: method === "oauth" ? (req.provider ?? cred.provider!.trim()) : undefined,
    totpSecret: method === "oauth" ? cred.totpSecret : undefined,
    allowHandoff: req.allowHandoff === true,
    region: req.region,
    createPasskey: req.createPasskey === true,
  };
}

/** Signup by OAuth names its provider once: `provider` (google, github) or `cred.provider`; no other method names one. */
function oauthProviderProblem(
  method: SignupMethod,
  short: string | undefined,
  named: string | undefined,
): { field: string; message: string } | null {
  if (method !== "oauth") {
    if (short !== undefined) return { field: "/provider", message: "is only for signup_method oauth" };
    if (named !== undefined) return { field: "/cred/provider", message: "is only for signup_method oauth" };
    return null;
  }
  if (short !== undefined && named !== undefined)
    return { field: "/cred/provider", message: "send provider or cred.provider, not both" };
  if (short === undefined && named === undefined)
    return {
      field: "/provider",
      message:
        "is required for signup_method oauth: google or github, or any provider's issuer URL or button label in cred.provider",
    };
  return null;
}
