/**
 * Compile-time proof that the SDK's own types are the API's: each pair must be assignable both ways, and
 * the code and type lists equal. `pnpm typecheck` fails here when the contracts change and the SDK does
 * not. Every request and answer is generated from the contracts' schemas (generated/): for them this
 * checks the generator; the SDK's own refinements (types.ts: webhook events, pages) are checked as written.
 * Not part of the published build (it needs the private @authsvc/contracts).
 */
import type * as api from "@authsvc/contracts";
import type * as sdk from "./index";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;

export type ContractChecks = [
  Holds<Same<sdk.Cookie, api.Cookie>>,
  Holds<Same<sdk.StorageState, api.StorageState>>,
  Holds<Same<sdk.SessionResponse, api.SessionResponse>>,
  Holds<Same<sdk.JobResource, api.JobResource>>,
  Holds<Same<sdk.JobStatus, api.JobStatus>>,
  Holds<Same<sdk.JobEvent, api.JobEvent>>,
  Holds<Same<sdk.JobEventType, api.JobEventType>>,
  Holds<Same<sdk.ErrorCode, api.ErrorCode>>,
  Holds<Same<sdk.ErrorBody, api.ErrorBody>>,
  Holds<Same<sdk.FieldError, api.FieldError>>,
  Holds<Same<sdk.LoginRequest, api.LoginRequest>>,
  Holds<Same<sdk.LoginMethod, api.LoginMethod>>,
  Holds<Same<sdk.LoginCred, api.LoginCred>>,
  Holds<Same<sdk.SignupRequest, api.SignupRequest>>,
  Holds<Same<sdk.SignupResponse, api.SignupResponse>>,
  Holds<Same<sdk.RefreshRequest, api.RefreshRequest>>,
  Holds<Same<sdk.VerifyRequest, api.VerifyRequest>>,
  Holds<Same<sdk.PasskeyEnrolRequest, api.PasskeyEnrolRequest>>,
  Holds<Same<sdk.PasskeyImport, api.PasskeyImport>>,
  Holds<Same<sdk.CredentialResource, api.CredentialResource>>,
  Holds<Same<sdk.EntryLinkRequest, api.EntryLinkRequest>>,
  Holds<Same<sdk.EntryLinkResource, api.EntryLinkResource>>,
  Holds<Same<sdk.MailboxRequest, api.MailboxRequest>>,
  Holds<Same<sdk.MailboxResource, api.MailboxResource>>,
  Holds<Same<sdk.InboundMessageResource, api.InboundMessageResource>>,
  Holds<Same<sdk.PhoneNumberResource, api.PhoneNumberResource>>,
  Holds<Same<sdk.WebhookRequest, api.WebhookRequest>>,
  Holds<Same<sdk.ProxyRequest, api.ProxyRequest>>,
  Holds<Same<sdk.ProxyResource, api.ProxyResource>>,
  Holds<Same<sdk.WebhookResource, api.WebhookResource>>,
  Holds<Same<sdk.WebhookEvent, api.WebhookEvent>>,
  Holds<Same<sdk.WebhookEventType, api.WebhookEventType>>,
  // The lists themselves, element for element and in order.
  Holds<Same<typeof sdk.JOB_EVENT_TYPES, typeof api.JOB_EVENT_TYPES>>,
  Holds<Same<typeof sdk.LOGIN_METHODS, typeof api.LOGIN_METHODS>>,
  Holds<Same<typeof sdk.SIGNUP_METHODS, typeof api.SIGNUP_METHODS>>,
  Holds<Same<typeof sdk.WEBHOOK_EVENTS, typeof api.WEBHOOK_EVENTS>>,
  Holds<
    Same<
      { [K in sdk.ErrorCode]: (typeof sdk.ERROR_STATUS)[K] },
      { [K in api.ErrorCode]: (typeof api.ERROR_CODES)[K]["status"] }
    >
  >,
];
