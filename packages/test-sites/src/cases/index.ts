import type { Router } from "express";
import type { Accounts } from "../accounts";
import { additionalFields } from "./additional-fields";
import { alertDialog } from "./alert-dialog";
import { busyDashboard } from "./busy-dashboard";
import { disabledSubmit } from "./disabled-submit";
import { readonlyUntilFocus } from "./readonly-until-focus";
import { emailConfirmation } from "./email-confirmation";
import { plainTextLockout } from "./plain-text-lockout";
import { apiSubdomain } from "./api-subdomain";
import { captcha, captchaCheckbox } from "./captcha";
import { CHALLENGED_CAPTCHA_CASES, INVISIBLE_CAPTCHA_CASES, invisibleCaptchas } from "./captcha-invisible";
import { controlledInputs } from "./controlled-inputs";
import { cookieBanner } from "./cookie-banner";
import { enterOnly } from "./enter-only";
import { germanForm } from "./german-form";
import { honeypot } from "./honeypot";
import { IDENTIFIER_CHOICE_CASES, identifierChoice } from "./identifier-choice";
import { IDENTIFIER_FIELD_CASES, identifierFields } from "./identifier-fields";
import { IDENTIFIER_FIRST_CASES, identifierFirstSteps } from "./identifier-first";
import { IDENTIFIER_FIRST_REFUSAL_CASES, identifierFirstRefusals } from "./identifier-first-refusals";
import { idpRedirect } from "./idp-redirect";
import { iframeCrossOrigin } from "./iframe-cross-origin";
import { iframeSameOrigin } from "./iframe-same-origin";
import { sessionCookie } from "./kit";
import { landingLink } from "./landing-link";
import { lateForm } from "./late-form";
import { LOCALIZED_CASES, localizedForms } from "./localized-forms";
import { lockedAccount } from "./locked-account";
import { modalLogin } from "./modal-login";
import { newsletterBeside } from "./newsletter-beside";
import { otpPrompt, TOTP_REFUSED_PLAIN, totpPlainRefusal, totpSplit } from "./otp-prompt";
import { pushApproval } from "./push-approval";
import { imageCaptcha, PICTURE_LOOKS, pictureChallenges } from "./image-captcha";
import { clearsField, focusThief, losesOnSubmit } from "./page-scripts";
export { EMPTY_FIELD_REFUSAL } from "./page-scripts";
import { CODE_IN_FORM, codeInForm, optionalCode } from "./code-in-form";
import { appRootToken, formForEveryone, logoutInput, profileLanding } from "./second-look";
import { httpBasicCookie, httpBasicOnly } from "./http-auth";
import { accountChooser, securityQuestion, termsUpdate, verifyDevice, verifyIdentity } from "./person-steps";
import { passwordGate } from "./password-gate";
import { passwordToggle } from "./password-toggle";
import { profileAfterLogin } from "./profile-after-login";
import { redesign } from "./redesign";
import { REFUSAL_SHAPE_CASES, refusalShapes } from "./refusal-shapes";
import { rememberMe } from "./remember-me";
import { ROTATING_COOKIE_CASES, rotatingCookies } from "./rotating-cookies";
import { revealPassword } from "./reveal-password";
import { roleButtonSubmit } from "./role-button-submit";
import { severalForms } from "./several-forms";
import { shadowRoot } from "./shadow-root";
import { SUBMIT_CONTROL_CASES, submitControls } from "./submit-controls";
import { rememberDevice, staySignedIn } from "./stay-signed-in";
import { browserSeen, regionCheck } from "./browser-seen";
import { uaBound } from "./ua-bound";
import { securityNotice } from "./security-notice";
import { trustedDevice } from "./trusted-device";
import { passkeyFirst } from "./passkey-first";
import { passkeySite } from "./passkey-site";
import { twoPage } from "./two-page";
import { emailCode, emailCodePlain, magicLink, passwordEmailCode, passwordSmsCode, smsCode } from "./sent-codes";
import type { Outbox } from "../outbox";

/** Pages whose code or link is sent to the service's own inbox (email through mail-in, SMS through the webhook). */
export const SENT_CODE_CASES = [
  { name: "email-code", method: "otp_email", expect: "email only, then a 6-digit code by email" },
  {
    name: "email-code-plain",
    method: "otp_email",
    expect: "email only, then a code by email; a wrong code refused in a plain div",
  },
  { name: "magic-link", method: "magic_link", expect: "email only, then a sign-in link by email" },
  { name: "password-email-code", method: "password", expect: "password, then a 6-digit code by email" },
  { name: "sms-code", method: "otp_sms", expect: "phone number only, then a 6-digit code by SMS" },
] as const;

export function caseRouters(accounts: Accounts, redesignVersion: () => number, outbox: Outbox): Router[] {
  return [
    emailCode(accounts, outbox),
    emailCodePlain(accounts, outbox),
    magicLink(accounts, outbox),
    passwordEmailCode(accounts, outbox),
    smsCode(accounts, outbox),
    twoPage(accounts),
    revealPassword(accounts),
    lateForm(accounts),
    iframeSameOrigin(accounts),
    iframeCrossOrigin(accounts),
    shadowRoot(accounts),
    modalLogin(accounts),
    landingLink(accounts),
    cookieBanner(accounts),
    roleButtonSubmit(accounts),
    enterOnly(accounts),
    severalForms(accounts),
    staySignedIn(accounts),
    rememberDevice(accounts),
    controlledInputs(accounts),
    additionalFields(accounts),
    rememberMe(accounts),
    honeypot(accounts),
    germanForm(accounts),
    newsletterBeside(accounts),
    passwordToggle(accounts),
    lockedAccount(accounts),
    captcha(accounts),
    otpPrompt(accounts),
    idpRedirect(accounts),
    apiSubdomain(accounts),
    ...localizedForms(accounts),
    redesign(accounts, redesignVersion),
    alertDialog(accounts),
    plainTextLockout(accounts),
    emailConfirmation(accounts),
    busyDashboard(accounts),
    readonlyUntilFocus(accounts),
    disabledSubmit(accounts),
    totpSplit(accounts),
    pushApproval(accounts),
    imageCaptcha(accounts),
    securityQuestion(accounts),
    accountChooser(accounts),
    verifyIdentity(accounts),
    verifyDevice(accounts),
    termsUpdate(accounts),
    passwordSmsCode(accounts),
    trustedDevice(accounts),
    browserSeen(accounts),
    regionCheck(accounts),
    securityNotice(accounts),
    passkeyFirst(accounts),
    passkeySite(accounts),
    ...identifierFields(accounts),
    ...submitControls(accounts),
    ...identifierFirstSteps(accounts),
    passwordGate(accounts),
    captchaCheckbox(accounts),
    ...invisibleCaptchas(accounts),
    ...refusalShapes(accounts),
    ...identifierFirstRefusals(accounts),
    totpPlainRefusal(accounts),
    ...rotatingCookies(accounts),
    ...identifierChoice(accounts),
    profileAfterLogin(accounts),
    focusThief(accounts),
    clearsField(accounts),
    losesOnSubmit(accounts),
    codeInForm(accounts),
    optionalCode(accounts),
    ...pictureChallenges(accounts),
    formForEveryone(accounts),
    appRootToken(accounts),
    logoutInput(accounts),
    profileLanding(accounts),
    httpBasicCookie(accounts),
    httpBasicOnly(accounts),
    uaBound(accounts),
  ];
}

/** What a login on a fixture page must end with. Codes are the API's error codes. */
export interface LoginCase {
  name: string;
  /** The URL a caller would give, from the fixture server's base URL. */
  url: (sitesUrl: string) => string;
  /** Verdict with the right password: "success", or the error code the page must produce. */
  expect: "success" | "account_locked" | "captcha_blocked" | "mfa_required" | "form_not_found";
  /** What a successful login leaves: a cookie (name and host) and/or a localStorage key (and its origin). */
  session?: {
    cookie?: string;
    cookieDomain?: string;
    /** The cookie must outlive this many days (remember me ticked, "stay signed in" answered yes). */
    persistentDays?: number;
    storageKey?: string;
    storageHost?: string;
    otherCookies?: Array<{ name: string; domain: string }>;
  };
  /** The page that greets a signed-in user by name when sent `session.cookie`. */
  account?: string;
  /** The verdict for a wrong password, on cases where one can be given (`login_unconfirmed`: the page says nothing). */
  wrongPassword?: "invalid_credentials" | "account_locked" | "login_unconfirmed" | "login_blocked";
  /** Words the page answers a wrong password with, which the verdict's message must quote. */
  refusal?: string;
  /** Words the page answers an unknown username with (on an identifier-first page): invalid_credentials, quoting them. */
  unknownIdentifier?: string;
  /** Words the page answers a wrong one-time code with (a TOTP case, given the wrong secret): verification_failed, quoting them. */
  wrongCode?: string;
  additionalFields?: Record<string, string>;
  lockedUser?: boolean;
  /** The user has a TOTP secret, and logins pass it as `totpSecret`. */
  totp?: boolean;
  /** The user has a TOTP secret, and logins do not pass it (the site must be answered mfa_required). */
  withoutSecret?: boolean;
  /** Where the site counts attempts (its fixture name). */
  site: string;
}

const at = (path: string) => (sitesUrl: string) => `${sitesUrl}${path}`;
const onHost = (host: string, path: string) => (sitesUrl: string) => sitesUrl.replace("127.0.0.1", host) + path;

function standard(name: string, extra: Partial<LoginCase> = {}): LoginCase {
  return {
    name,
    site: name,
    url: at(`/cases/${name}/login`),
    expect: "success",
    session: { cookie: sessionCookie(name), cookieDomain: "127.0.0.1" },
    account: `/cases/${name}/account`,
    wrongPassword: "invalid_credentials",
    ...extra,
  };
}

/** Every page shape the engine must handle, one fixture page each. */
export const LOGIN_CASES: LoginCase[] = [
  standard("classic", { url: at("/classic/login"), account: "/classic/account" }),
  standard("spa", {
    url: at("/spa/login"),
    session: { storageKey: "spa_token", storageHost: "127.0.0.1" },
    account: undefined,
  }),
  standard("notice", {
    site: "classic",
    url: at("/notice/login"),
    session: { cookie: "classic_sid", cookieDomain: "127.0.0.1" },
    account: "/classic/account",
  }),
  standard("lockout", {
    url: at("/lockout/login"),
    session: { cookie: "classic_sid", cookieDomain: "127.0.0.1" },
    account: "/classic/account",
    wrongPassword: "account_locked",
  }),
  standard("two-page"),
  standard("reveal-password"),
  standard("late-form"),
  standard("iframe-same-origin"),
  standard("iframe-cross-origin"),
  standard("shadow-root"),
  standard("modal-login"),
  standard("landing-link", { url: at("/cases/landing-link/") }),
  standard("cookie-banner"),
  standard("role-button-submit"),
  standard("enter-only"),
  standard("several-forms"),
  standard("stay-signed-in", {
    session: { cookie: sessionCookie("stay-signed-in"), cookieDomain: "127.0.0.1", persistentDays: 29 },
  }),
  standard("remember-device", {
    session: { cookie: sessionCookie("remember-device"), cookieDomain: "127.0.0.1", persistentDays: 29 },
  }),
  standard("controlled-inputs"),
  standard("additional-fields", { additionalFields: { workspace: "acme", account: "Billing" } }),
  standard("remember-me", {
    session: { cookie: sessionCookie("remember-me"), cookieDomain: "127.0.0.1", persistentDays: 29 },
  }),
  standard("honeypot"),
  standard("german-form"),
  standard("newsletter-beside"),
  standard("password-toggle"),
  standard("redesign"),
  ...LOCALIZED_CASES.map((name) => standard(name)),
  ...IDENTIFIER_FIELD_CASES.map((name) => standard(name)),
  ...IDENTIFIER_CHOICE_CASES.map((c) => standard(c.name, c.extra)),
  ...SUBMIT_CONTROL_CASES.map((name) => standard(name)),
  ...IDENTIFIER_FIRST_CASES.map((name) => standard(name)),
  ...IDENTIFIER_FIRST_REFUSAL_CASES.map(({ name, unknownIdentifier }) => standard(name, { unknownIdentifier })),
  // No identifier field: the site cannot tell whose wrong password it was, so no attempt is counted per user.
  standard("password-gate", { wrongPassword: undefined }),
  ...INVISIBLE_CAPTCHA_CASES.map((name) => standard(name)),
  standard("captcha-checkbox"),
  standard("idp-redirect", {
    session: {
      cookie: sessionCookie("idp-redirect"),
      cookieDomain: "127.0.0.1",
      otherCookies: [{ name: "idp_session", domain: "idp.localhost" }],
      storageKey: "idp_device",
      storageHost: "idp.localhost",
    },
  }),
  standard("api-subdomain", {
    url: onHost("www.shop.localhost", "/cases/api-subdomain/login"),
    session: {
      cookie: "api_session",
      cookieDomain: "api.shop.localhost",
      storageKey: "shop_token",
      storageHost: "www.shop.localhost",
    },
    account: undefined,
  }),
  standard("alert-dialog"),
  standard("plain-text-lockout", { wrongPassword: "account_locked" }),
  ...REFUSAL_SHAPE_CASES.map((c) => standard(c.name, c.extra)),
  ...ROTATING_COOKIE_CASES.map((c) => standard(c.name, c.extra)),
  standard("busy-dashboard"),
  standard("security-notice"),
  // Under a name: WebAuthn refuses an IP address as a relying party, so on 127.0.0.1 the browser would turn the
  // passkey request down as invalid, whatever its authenticator holds.
  standard("passkey-first", {
    url: onHost("passkeys.localhost", "/cases/passkey-first/login"),
    session: { cookie: sessionCookie("passkey-first"), cookieDomain: "passkeys.localhost" },
  }),
  standard("profile-after-login"),
  standard("readonly-until-focus"),
  // Page scripts that move the focus or empty a field while the keys go out: every field is checked, and typed again.
  standard("focus-thief", { refusal: "The password you entered for that username is incorrect." }),
  standard("clears-field", { refusal: "The password you entered for that username is incorrect." }),
  // The authenticator's code in the password's own form (and an optional one, left empty without a secret).
  standard("code-in-form", { totp: true, wrongCode: CODE_IN_FORM.wrong, refusal: CODE_IN_FORM.password }),
  standard("optional-code", { totp: true, wrongCode: CODE_IN_FORM.wrong }),
  standard("optional-code-none", {
    site: "optional-code",
    url: at("/cases/optional-code/login"),
    session: { cookie: sessionCookie("optional-code"), cookieDomain: "127.0.0.1" },
    account: "/cases/optional-code/account",
  }),
  // Signed-in pages proven beside a visitor without the session, or by a sign-out of an unusual shape.
  standard("form-for-everyone", {
    url: at("/cases/form-for-everyone/admin/"),
    refusal: "The password you entered for that username is incorrect.",
  }),
  standard("app-root-token", {
    url: at("/cases/app-root-token/"),
    session: { storageKey: "art_token", storageHost: "127.0.0.1" },
    account: undefined,
    refusal: "Incorrect email or password",
  }),
  standard("logout-input", { url: at("/cases/logout-input/"), refusal: "Invalid credentials." }),
  standard("profile-landing", { refusal: "The password you entered for that username is incorrect." }),
  standard("code-in-form-no-secret", {
    site: "code-in-form",
    url: at("/cases/code-in-form/login"),
    expect: "mfa_required",
    session: undefined,
    wrongPassword: undefined,
    totp: true,
    withoutSecret: true,
  }),
  standard("disabled-submit"),
  standard("email-confirmation", { expect: "mfa_required", session: undefined }),
  standard("locked-account", {
    expect: "account_locked",
    session: undefined,
    wrongPassword: "account_locked",
    lockedUser: true,
  }),
  standard("captcha", { expect: "captcha_blocked", session: undefined, wrongPassword: undefined }),
  standard("image-captcha", { expect: "captcha_blocked", session: undefined, wrongPassword: undefined }),
  ...Object.keys(PICTURE_LOOKS).map((name) =>
    standard(name, { expect: "captcha_blocked", session: undefined, wrongPassword: undefined }),
  ),
  ...CHALLENGED_CAPTCHA_CASES.map((name) =>
    standard(name, { expect: "captcha_blocked", session: undefined, wrongPassword: undefined }),
  ),
  standard("otp-prompt", { expect: "mfa_required", session: undefined }),
  standard("security-question", { expect: "mfa_required", session: undefined }),
  standard("password-sms-code", { expect: "mfa_required", session: undefined }),
  standard("verify-identity", { expect: "mfa_required", session: undefined }),
  standard("verify-device", { expect: "mfa_required", session: undefined }),
  // The session cookie comes before the terms: it leads only to them, and no person was there to accept.
  standard("terms-update", { expect: "mfa_required", session: undefined }),
  standard("otp-prompt-totp", {
    site: "otp-prompt",
    url: at("/cases/otp-prompt/login"),
    totp: true,
    wrongCode: "That code didn't work. Check your authenticator app.",
    session: { cookie: sessionCookie("otp-prompt"), cookieDomain: "127.0.0.1" },
    account: "/cases/otp-prompt/account",
  }),
  standard("totp-split", { totp: true, wrongCode: "That code didn't work. Check your authenticator app." }),
  standard("totp-plain-refusal", { totp: true, wrongCode: TOTP_REFUSED_PLAIN }),
  { name: "no-form", site: "none", url: at("/no-form"), expect: "form_not_found" },
];
