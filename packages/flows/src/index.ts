export { passwordLogin, type PasswordLoginInput, type PasswordLoginResult, type FlowOptions } from "./login/password-login";
export type { CaptchaChallenge, CaptchaSolver } from "./login/pass-captcha";
export { parseLearnedFlow, sameFlow, type LearnedFlow } from "./login/learned-flow";
export type { FlowStep } from "./login/perform-step";
export { LoginFlowError, SignupUnfinishedError, type UnfinishedAccount } from "./flow-error";
export { Deadline } from "./deadline";
export { awaitVerification, type Inbox, type InboxMessage } from "./mail/await-verification";
export { signup, type SignupInput, type SignupOptions, type SignupResult } from "./signup/signup";
export { PageWatch } from "./page-watch";
