import type { Router } from "express";
import type { Accounts } from "../accounts";
import type { Outbox } from "../outbox";
import { additionalFieldsCase } from "./additional-fields";
import { alertDialogCase } from "./alert-dialog";
import { apiSubdomainCase } from "./api-subdomain";
import { browserSeenCases } from "./browser-seen";
import { busyDashboardCase } from "./busy-dashboard";
import { captchaCase, captchaCheckboxCase } from "./captcha";
import { challengedCaptchaCases, invisibleCaptchaCases } from "./captcha-invisible";
import { codeInFormCases, codeInFormNoSecretCase } from "./code-in-form";
import { controlledInputsCase } from "./controlled-inputs";
import { cookieBannerCase } from "./cookie-banner";
import { disabledSubmitCase } from "./disabled-submit";
import { emailConfirmationCase } from "./email-confirmation";
import { enterOnlyCase } from "./enter-only";
import { germanFormCase } from "./german-form";
import { honeypotCase } from "./honeypot";
import { httpAuthCases } from "./http-auth";
import { identifierChoiceCases } from "./identifier-choice";
import { identifierFieldCases } from "./identifier-fields";
import { identifierFirstCases } from "./identifier-first";
import { identifierFirstRefusalCases } from "./identifier-first-refusals";
import { idpRedirectCase } from "./idp-redirect";
import { iframeCrossOriginCase } from "./iframe-cross-origin";
import { iframeSameOriginCase } from "./iframe-same-origin";
import { imageCaptchaCases } from "./image-captcha";
import { landingLinkCase } from "./landing-link";
import { lateFormCase } from "./late-form";
import { localizedFormCases } from "./localized-forms";
import { lockedAccountCase } from "./locked-account";
import type { FixtureCase, LoginCase, SentCodeCase } from "./login-case";
import { modalLoginCase } from "./modal-login";
import { newsletterBesideCase } from "./newsletter-beside";
import { otpPromptCase, totpCases } from "./otp-prompt";
import { pageScriptCases } from "./page-scripts";
import { passkeyFirstCase } from "./passkey-first";
import { passkeySiteCase } from "./passkey-site";
import { passwordGateCase } from "./password-gate";
import { passwordToggleCase } from "./password-toggle";
import { personStepCases, securityQuestionCase } from "./person-steps";
import { plainTextLockoutCase } from "./plain-text-lockout";
import { profileAfterLoginCase } from "./profile-after-login";
import { pushApprovalCase } from "./push-approval";
import { readonlyUntilFocusCase } from "./readonly-until-focus";
import { redesignCase } from "./redesign";
import { refusalShapeCases } from "./refusal-shapes";
import { rememberMeCase } from "./remember-me";
import { revealPasswordCase } from "./reveal-password";
import { roleButtonSubmitCase } from "./role-button-submit";
import { rotatingCookieCases } from "./rotating-cookies";
import { secondLookCases } from "./second-look";
import { securityNoticeCase } from "./security-notice";
import { passwordSmsCodeCase, sentCodeCases } from "./sent-codes";
import { severalFormsCase } from "./several-forms";
import { shadowRootCase } from "./shadow-root";
import { noFormCase, sitePageCases } from "./site-pages";
import { staySignedInCases } from "./stay-signed-in";
import { streamedAnswerCase } from "./streamed-answer";
import { submitControlCases } from "./submit-controls";
import { trustedDeviceCase } from "./trusted-device";
import { twoPageCase } from "./two-page";
import { uaBoundCase } from "./ua-bound";

export { EMPTY_FIELD_REFUSAL } from "./page-scripts";
export type { LoginCase, SentCodeCase } from "./login-case";

/**
 * Every case module's registration, in the order the tests iterate the cases. Each case's pages live under
 * their own paths, so the order the routers are mounted in does not matter.
 */
const FIXTURE_CASES: FixtureCase[] = [
  sentCodeCases,
  sitePageCases,
  twoPageCase,
  revealPasswordCase,
  lateFormCase,
  streamedAnswerCase,
  iframeSameOriginCase,
  iframeCrossOriginCase,
  shadowRootCase,
  modalLoginCase,
  landingLinkCase,
  cookieBannerCase,
  roleButtonSubmitCase,
  enterOnlyCase,
  severalFormsCase,
  staySignedInCases,
  controlledInputsCase,
  additionalFieldsCase,
  rememberMeCase,
  honeypotCase,
  germanFormCase,
  newsletterBesideCase,
  passwordToggleCase,
  redesignCase,
  localizedFormCases,
  identifierFieldCases,
  identifierChoiceCases,
  submitControlCases,
  identifierFirstCases,
  identifierFirstRefusalCases,
  passwordGateCase,
  invisibleCaptchaCases,
  captchaCheckboxCase,
  idpRedirectCase,
  apiSubdomainCase,
  alertDialogCase,
  plainTextLockoutCase,
  refusalShapeCases,
  rotatingCookieCases,
  busyDashboardCase,
  securityNoticeCase,
  passkeyFirstCase,
  profileAfterLoginCase,
  readonlyUntilFocusCase,
  pageScriptCases,
  codeInFormCases,
  secondLookCases,
  codeInFormNoSecretCase,
  disabledSubmitCase,
  emailConfirmationCase,
  lockedAccountCase,
  captchaCase,
  imageCaptchaCases,
  challengedCaptchaCases,
  otpPromptCase,
  securityQuestionCase,
  passwordSmsCodeCase,
  personStepCases,
  totpCases,
  noFormCase,
  // Pages without a LoginCase: their own suites drive them.
  pushApprovalCase,
  trustedDeviceCase,
  browserSeenCases,
  passkeySiteCase,
  httpAuthCases,
  uaBoundCase,
];

export function caseRouters(accounts: Accounts, redesignVersion: () => number, outbox: Outbox): Router[] {
  return FIXTURE_CASES.flatMap((c) => c.router?.({ accounts, outbox, redesignVersion }) ?? []);
}

/** Every page shape the engine must handle, one fixture page each. */
export const LOGIN_CASES: LoginCase[] = FIXTURE_CASES.flatMap((c) => c.cases ?? []);

/** Pages whose code or link is sent to the service's own inbox (email through mail-in, SMS through the webhook). */
export const SENT_CODE_CASES: SentCodeCase[] = FIXTURE_CASES.flatMap((c) => c.sentCodes ?? []);
