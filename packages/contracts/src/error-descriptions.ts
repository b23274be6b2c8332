import type { ErrorCode } from "./error-codes";

/**
 * What each error code says, in the words of each place that explains it: `meaning` in the OpenAPI
 * document (its error answers and their examples); `explained` and `retry` in docs/errors.md's table,
 * which is generated from them (`npm run generate:contracts`).
 */
export const ERROR_DESCRIPTIONS: { readonly [K in ErrorCode]: { meaning: string; explained: string; retry: string } } =
  {
    invalid_request: {
      meaning: "The body or a parameter is invalid; `details` names each field and why.",
      explained: "The body or a parameter is invalid; `details` names each field and why.",
      retry: "no — fix the request",
    },
    invalid_json: {
      meaning: "The body is not well-formed JSON.",
      explained: "The body is not well-formed JSON.",
      retry: "no",
    },
    unauthorized: {
      meaning: "The Authorization header is missing, malformed, unknown or revoked.",
      explained: "The Authorization header is missing, malformed, unknown or revoked.",
      retry: "no — check the key",
    },
    not_found: {
      meaning: "No such resource for this organization, or no such route.",
      explained: "No such resource for this organization, or no such route.",
      retry: "no",
    },
    conflict: {
      meaning:
        "The address or phone number is already taken (by this or another organization), or a domain and username name credentials on several login pages of one site.",
      explained:
        "The mailbox address or phone number is already taken, by this or another organization; or `POST /v1/refresh` named by `domain` + `username` a site where that username has credentials on several login pages (the message lists them).",
      retry: "no — pick another address, or send the login page as `domain` (or the `credentialId`)",
    },
    account_exists: {
      meaning:
        "The target site already has an account for this email address (signup); log in with POST /v1/login instead. Never retried.",
      explained:
        "`POST /v1/signup`: the target site already has an account for this email address (its words in the message). Never retried.",
      retry: "no — log in with `POST /v1/login`",
    },
    payload_too_large: {
      meaning: "The body is larger than the gateway accepts.",
      explained: "The body is larger than the gateway accepts (64 KiB by default).",
      retry: "no",
    },
    unsupported_media_type: {
      meaning: "The body is not sent as application/json.",
      explained: "The body is not sent as `application/json`.",
      retry: "no",
    },
    idempotency_mismatch: {
      meaning:
        "The Idempotency-Key was used in the last 24 hours for a request with another body or endpoint; use a new key for a new request.",
      explained: "The `Idempotency-Key` was used in the last 24 hours for a request with another body or endpoint.",
      retry: "no — use a new key for a new request",
    },
    invalid_credentials: {
      meaning: "The target site refused the username or password. Never retried.",
      explained: "The target site refused the username or password. We never retry it: retries lock accounts.",
      retry: "no — fix the credentials",
    },
    form_not_found: {
      meaning: "No login form was found on the page at `domain`.",
      explained: "No login form was found on the page at `domain`.",
      retry: "no — check the URL",
    },
    form_ambiguous: {
      meaning:
        "The login form has several fields the username could go in and nothing on the page tells which (nothing was typed or sent); `details` names each: `field` is `/additionalFields/<its name>`, `message` its label. Name every one but the username's in `additionalFields` (by label or name; an empty string leaves a field empty) and send again.",
      explained:
        "The login form has several fields the username could go in (a branch and account number *or* a contract number) and nothing on the page tells which; nothing was typed or sent. `details` names each candidate: `field` is `/additionalFields/<its name>`, `message` its label.",
      retry:
        'yes, once you name every candidate but the username\'s in `additionalFields` (by label or name; `""` leaves a field empty)',
    },
    captcha_blocked: {
      meaning: "The target site asked for a CAPTCHA.",
      explained:
        "The target site asked for a CAPTCHA, and no solver is configured (`CAPTCHA_SOLVER`) or it could not answer (the message says why).",
      retry: "later, maybe",
    },
    login_blocked: {
      meaning:
        "The target site's risk check refused the sign-in from this browser, address or device (\"unusual activity\", \"try again from your usual device\"), not the credentials; the message is the site's words. An organization's proxy, or the credential's remembered device, may be what it wants. Never retried.",
      explained:
        'The target site\'s risk check refused the sign-in from this browser, address or device ("unusual activity", "try again from your usual device"), not the credentials; the message is the site\'s words. Never retried.',
      retry: "not as is — through the organization's proxy, or once the credential's device is remembered",
    },
    account_locked: {
      meaning:
        "The target site said the account is locked, suspended or blocked after too many attempts. Never retried.",
      explained:
        "The target site said the account is locked, suspended or blocked after too many attempts; the error's message quotes it. We never retry it.",
      retry: "no — unlock it on the site",
    },
    mfa_required: {
      meaning:
        "The target site asked for a second factor, or another step only the account's person can take (a security question, \"verify it's you\", its terms to accept), that the request gave no way to answer (send `allowHandoff: true` to have a person answer it).",
      explained:
        "The target site asked for a second factor, or another step only the account's person can take (a security question, \"verify it's you\", its terms to accept), that the request gave no way to answer.",
      retry:
        "yes, with `allowHandoff: true` (a person answers it, [api.md](api.md#a-person-answers-what-the-service-cannot)) or a `totpSecret`",
    },
    input_timeout: {
      meaning:
        "The job waited for a person's input (`needs_input`) and none came before `input.expiresAt`; the site has seen the password, and it is not sent again. Never retried.",
      explained:
        "The job waited for a person (`needs_input`) and no answer came before `input.expiresAt` (`HANDOFF_MAX_WAIT_MS`, 10 minutes by default). The site has seen the password; it is not sent again.",
      retry: "yes, a new request when a person is there",
    },
    handoff_interrupted: {
      meaning:
        "The job was waiting for a person's input when its worker stopped; the page it held is gone, and the password is not sent again. Start a new request.",
      explained:
        "The job was waiting for a person when its worker stopped (a deploy, a scale-down): the page it held is gone, and the password is not sent again.",
      retry: "yes, a new request",
    },
    not_waiting_for_input: {
      meaning:
        "The job is not waiting for input now (it ended, runs on, or an answer was given already); read GET /v1/jobs/{jobId}.",
      explained:
        "`POST /v1/jobs/{jobId}/input` for a job that waits for no input now: it ended, runs on, or an answer was given already (the first of two answers wins).",
      retry: "no — read `GET /v1/jobs/{jobId}`",
    },
    verification_failed: {
      meaning:
        "The target site refused the one-time code (authenticator, email or SMS) or the sign-in link (wrong, expired or used). Never retried.",
      explained:
        "The target site refused the one-time code (authenticator, email or SMS) or the sign-in link: wrong, expired or already used. The message quotes the site. We never retry it: the site sent that code once.",
      retry: "no — check the TOTP secret, or ask again later",
    },
    provider_blocked: {
      meaning:
        "The sign-in provider (Google, GitHub, the OpenID provider) refused this browser: an insecure-browser or unusual-activity wall. Never retried.",
      explained:
        "An OAuth login: the provider (Google, GitHub, your OpenID provider) refused this browser with an insecure-browser or unusual-activity wall; its words are in the message. Never retried.",
      retry: "later, maybe — sign in once by hand from a trusted browser",
    },
    consent_denied: {
      meaning:
        "The sign-in provider did not grant the site access to the account (the authorization was denied or cancelled), or the person a hand-off asked declined the site's terms and the site kept the account out. Never retried.",
      explained:
        "An OAuth login: the provider did not grant the site access (the authorization was denied or cancelled), or the site says so; or the person a hand-off asked declined the site's terms, and the site kept the account out. Never retried.",
      retry: "no — allow the app for that provider account, or accept the terms",
    },
    account_not_linked: {
      meaning:
        "The provider signed the account in, but the site refused it: no account on the site is linked to that provider account. Never retried.",
      explained:
        "An OAuth login: the provider signed the account in, but the site refused it — no site account is linked to that provider account (the site's words in the message). Never retried.",
      retry: "no — sign up (`POST /v1/signup`, `signup_method: oauth`) or link the account on the site",
    },
    login_unconfirmed: {
      meaning:
        "The form was submitted but the page showed neither a signed-in state nor an error, or the login was cut off after the submit (its worker or browser died); it is not submitted again.",
      explained:
        "The form was submitted but the page showed neither a signed-in state nor an error, or the login was cut off after the submit (its worker or browser died, [operations.md](operations.md#failure-behaviour)): the outcome is unknown and the password is not submitted again.",
      retry: "maybe",
    },
    passkey_not_offered: {
      meaning:
        "The site offers no way to add a passkey (no settings page it links to, or the one given, has one) or to sign in with one (its login page asks for the password only), or the credential holds no passkey of this site. Never retried.",
      explained:
        'The site offers no way to add a passkey (no settings page it links to, or the `settingsUrl` given, has an "Add a passkey" control) or to sign in with one (its login page asks for the password only); or a `passkey` login named a credential that holds no passkey of this site. Never retried.',
      retry: "no — add one on the site by hand, or sign in with the password",
    },
    passkey_rejected: {
      meaning:
        "The site turned the passkey down: it did not take the one the service made, or refused the stored one's sign-in (the account no longer knows it); the message is the site's words where it gave some. Never retried.",
      explained:
        "The site turned the passkey down: it did not take the one the service made (a request of its page failed, or it said so, or the new passkey's confirming sign-in was refused), or it refused the stored passkey's sign-in (the account no longer knows it: removed on the site). The message quotes the site where it said something. Never retried.",
      retry: "no — enrol a new passkey (`POST /v1/credentials/{id}/passkeys`)",
    },
    signup_rejected: {
      meaning:
        "The target site refused the signup form (a field it wants, a password it does not take, an invalid invitation); the message is the site's words. Never retried.",
      explained:
        "`POST /v1/signup`: the site refused the signup form and said why (a password it does not take, a field it wants, an invalid invitation), or the form needs a field the request does not give (`additionalFields`). Never retried.",
      retry: "no — fix the request",
    },
    verification_pending: {
      meaning:
        "The target site created the account and waits for its email to be confirmed, and no confirmation reached the service in the wait; the credential named by `credentialId` keeps the account and its password (status `pending_verification`). Never retried.",
      explained:
        "A signup created the account and the site waits for its email to be confirmed, but no confirmation reached the service in the wait (the address is not one of your mailboxes, or nothing arrived). The error's `credentialId` names the stored credential that keeps the account and its password (status `pending_verification`).",
      retry: "no — confirm the email yourself, then refresh the credential",
    },
    no_stored_secret: {
      meaning:
        "The credential never logged in successfully, so there is no stored secret to refresh with; log in with POST /v1/login.",
      explained:
        "`POST /v1/refresh` named a credential that never logged in successfully: there is no stored secret to log in with.",
      retry: "no — log in with `POST /v1/login` first",
    },
    target_not_allowed: {
      meaning: "The target address is not allowed (not http(s), or private, loopback, link-local or metadata).",
      explained:
        "The target address is not allowed: not http(s), or it resolves to a private, loopback, link-local or metadata address.",
      retry: "no",
    },
    rate_limited: {
      meaning: "Too many requests for this organization; retry after `Retry-After` seconds.",
      explained: "Too many requests for this organization; wait `Retry-After` seconds.",
      retry: "yes, after `Retry-After`",
    },
    internal_error: {
      meaning: "A fault of ours; the requestId identifies it in our logs.",
      explained: "A fault of ours; the `requestId` finds it in our logs.",
      retry: "yes",
    },
    method_not_supported: {
      meaning: "The login or signup method is not available yet.",
      explained:
        "The login or signup method is enumerated by the API but not available yet (today every login method runs, and `email` and `invitation` sign up; a signup by OAuth does not yet).",
      retry: "no",
    },
    target_unreachable: {
      meaning: "The target site could not be reached or answered with an error.",
      explained:
        "The target site could not be reached or answered with a server error (already retried by us with backoff).",
      retry: "yes, later",
    },
    proxy_unreachable: {
      meaning:
        "The organization's proxy the job left through could not be reached, or could not reach the site: the proxy's fault, not the site's. Nothing was sent to the site.",
      explained:
        "The organization's proxy the job left through could not be reached, or could not reach the site: the proxy's fault, not the site's. Nothing was sent to the site.",
      retry: "yes, later, or name another proxy",
    },
    proxy_auth_failed: {
      meaning:
        "The organization's proxy refused the credentials in its URL (HTTP 407, or SOCKS5's sign-in). Nothing was sent to the site; fix the proxy (delete it and add it again). Never retried.",
      explained:
        "The organization's proxy refused the credentials in its URL (407, or SOCKS5's sign-in). Nothing was sent to the site. Never retried.",
      retry: "no — delete the proxy and add it with the right credentials",
    },
    region_unavailable: {
      meaning:
        "No worker of the region the job asked for (`region`, or the credential's own) is running: none came within a short wait, or the region's last worker left while the job was queued. Nothing was sent to the site; retry later, or name another region.",
      explained:
        "No worker of the region the job asked for (`region`, or the credential's own) is running: none came within `REGION_WAIT_MS`, or the region's last worker left while the job waited in its queue. Nothing was sent to the site. The message names the regions that have a worker.",
      retry: "yes, after `Retry-After`, or name another region",
    },
    service_unavailable: {
      meaning: "The service is starting, stopping or lost its queue; retry later.",
      explained: "The service is starting, stopping or lost its database or queue.",
      retry: "yes, after `Retry-After`",
    },
    timeout: {
      meaning:
        "The login did not finish within the service's time limit, or no code or link arrived while it waited; the message names the step.",
      explained:
        "The login did not finish within the service's time limit, or no code or link arrived in our inbox while the login waited for it (`MFA_WAIT_MS`); the message names the step that waited, e.g. `no email arrived at agent-7@mail.example.com within 120 s (waiting for the sign-in code)`.",
      retry: "yes, for a slow site; a wait for mail is not retried by us",
    },
  };
