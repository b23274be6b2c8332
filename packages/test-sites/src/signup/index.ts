import type { Router } from "express";
import type { Accounts } from "../accounts";
import type { Outbox } from "../outbox";
import type { Invitations } from "./invitations";
import type { SignupRegistry } from "./registry";
import { signupCode } from "./signup-code";
import { signupInstant } from "./signup-instant";
import { signupInvite } from "./signup-invite";
import { signupLink } from "./signup-link";
import { signupMailedPassword } from "./signup-mailed-password";
import { signupSetPassword } from "./signup-set-password";
import { signupHints, signupRules } from "./signup-rules";
import { signupUsername } from "./signup-username";
import { signupCaptcha } from "./signup-captcha";
import { signupHub, signupTracker } from "./signup-patterns";
import { signupHash } from "./signup-hash";
export { ACTIVATION_SENT, LOGIN_BLANK, NOT_ACTIVATED_YET, SIGNUP_TOOK } from "./signup-patterns";

export { Invitations } from "./invitations";
export { SignupRegistry, type SignupRecord } from "./registry";
export { invitationPath } from "./signup-invite";

/** The sign-up pages: how each confirms a new account, and whether it signs the account in by itself. */
export const SIGNUP_CASES = [
  { name: "signup-link", path: "/cases/signup-link/signup", verification: "link", signsIn: false },
  {
    name: "signup-confirm-button",
    path: "/cases/signup-confirm-button/signup",
    verification: "link, then a Confirm button",
    signsIn: false,
  },
  { name: "signup-code", path: "/cases/signup-code/signup", verification: "code", signsIn: true },
  { name: "signup-instant", path: "/cases/signup-instant/signup", verification: null, signsIn: true },
  { name: "signup-rules", path: "/cases/signup-rules/signup", verification: null, signsIn: true },
  { name: "signup-hints", path: "/cases/signup-hints/signup", verification: null, signsIn: true },
  { name: "signup-invite", path: "/cases/signup-invite/join", verification: null, signsIn: true },
  { name: "signup-username", path: "/cases/signup-username/signup", verification: null, signsIn: true },
  {
    name: "signup-set-password",
    path: "/cases/signup-set-password/signup",
    verification: "set-password link",
    signsIn: false,
  },
  {
    name: "signup-mailed-password",
    path: "/cases/signup-mailed-password/signup",
    verification: "mailed password",
    signsIn: false,
  },
  {
    name: "signup-wiki-password",
    path: "/cases/signup-wiki-password/signup",
    verification: "mailed login and password (base64 multipart)",
    signsIn: false,
  },
  {
    name: "signup-new-password",
    path: "/cases/signup-new-password/signup",
    verification: "set-password link",
    signsIn: false,
  },
  { name: "signup-tracker", path: "/cases/signup-tracker/account/register", verification: null, signsIn: false },
  {
    name: "signup-tracker-mail",
    path: "/cases/signup-tracker-mail/account/register",
    verification: "activation link, login name only",
    signsIn: false,
  },
  {
    name: "signup-tracker-quiet",
    path: "/cases/signup-tracker-quiet/account/register",
    verification: "activation link not mentioned, login name only",
    signsIn: false,
  },
  { name: "signup-hub", path: "/cases/signup-hub/signup", verification: null, signsIn: false },
  { name: "signup-hash", path: "/cases/signup-hash/#/signup", verification: null, signsIn: true },
] as const;

export function createSignupRouters(
  accounts: Accounts,
  outbox: Outbox,
  registry: SignupRegistry,
  invitations: Invitations,
): Router[] {
  return [
    signupLink(accounts, outbox, registry),
    signupLink(accounts, outbox, registry, "signup-confirm-button", true),
    signupCode(accounts, outbox, registry),
    signupInstant(accounts, registry),
    signupRules(accounts, registry),
    signupHints(accounts, registry),
    signupInvite(accounts, registry, invitations),
    signupUsername(accounts, registry),
    signupMailedPassword(accounts, outbox, registry),
    signupMailedPassword(accounts, outbox, registry, "signup-wiki-password", true),
    signupSetPassword(accounts, outbox, registry, "signup-set-password", true),
    signupSetPassword(accounts, outbox, registry, "signup-new-password", false),
    // Not in SIGNUP_CASES: only a person can read its CAPTCHA (the hand-off tests use it).
    signupCaptcha(accounts, registry),
    signupTracker(accounts, registry),
    signupTracker(accounts, registry, outbox),
    signupTracker(accounts, registry, outbox, true),
    signupHub(accounts, registry),
    signupHash(accounts, registry),
  ];
}
