export {
  passwordLogin,
  type PasswordLoginInput,
  type PasswordLoginResult,
  type FlowOptions,
  type FlowMilestone,
} from "./login/password-login";
export { confirmAndSignIn, type Confirmation } from "./login/confirm-account";
export type { CaptchaChallenge, CaptchaSolver } from "./captcha/pass-captcha";
export { CaptchaSolverError, twoCaptchaSolver, type TwoCaptchaOptions } from "./captcha/two-captcha-solver";
export { parseLearnedFlow, sameFlow, type LearnedFlow } from "./login/learned-flow";
export type { FlowStep } from "./page/steps";
export { LoginFlowError, SignupUnfinishedError, type UnfinishedAccount } from "./flow-error";
export { Deadline } from "./deadline";
export { awaitVerification, type Inbox, type InboxMessage } from "./inbox/await-verification";
export {
  finishMailedSignup,
  type MailedSignupInput,
  signup,
  type SignupInput,
  type SignupOptions,
  type SignupResult,
} from "./signup/signup";
export { PageWatch } from "./page/page-watch";
export { SESSION_CHECK_STEP, storedSessionSignedIn } from "./page/second-look";
export { oauthLogin, type OAuthLoginInput, type OAuthLoginResult } from "./oauth/oauth-login";
export type { OAuthSignupDetails } from "./oauth/site-signup";
export { HANDOFF_CODE_TRIES, type Handoff, type HandoffAnswer, type HandoffQuestion } from "./handoff";
export { rememberedDevice } from "./page/remembered-device";
export { bringCookies } from "./page/bring-cookies";
export { enrolPasskey, type EnrolPasskeyInput } from "./passkey/enrol-passkey";
export { passkeyFits, passkeyLogin, type PasskeyLoginInput, type PasskeyLoginResult } from "./passkey/passkey-login";
export { signInOnPage } from "./login/password-login";
