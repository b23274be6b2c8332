/**
 * The words the engine reads pages by, every language it reads, in one place: what sites say around a login
 * (refusals, person steps, other methods, passkeys, OAuth pages) and a signed-in page's sign-out control, which
 * the session check reads too. The words only in-page readers read (reader-words.ts, emailed-link-words.ts,
 * oauth-page-words.ts, signup-words.ts, captcha-words.ts) are imported by their modules directly, so that a reader's bundle holds only its own.
 */

export * from "./login-words";
export * from "./method-words";
export * from "./oauth-words";
export * from "./passkey-words";
export * from "./person-step-words";
export * from "./refusal-words";
export * from "./sign-out-words";
