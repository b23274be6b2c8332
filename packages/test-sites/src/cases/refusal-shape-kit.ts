import type { LoginCase } from "./login-case";

/**
 * How sites say no to a password, with their own markup and words: often plain text (a flash paragraph,
 * a table cell, a span under a field, a toast), no `role=alert`. One page per shape.
 */
export interface Shape {
  name: string;
  lang?: string;
  /** The refusal comes back on the form again after a redirect (a flash cookie), in the re-rendered page, or from a script. */
  via: "redirect" | "rerender" | "script";
  /** The site's words for a wrong password (`{user}`: the username typed). */
  words: string;
  /** Its words for a locked account, when they differ. */
  locked?: string;
  /** The page: the form and the site's words where it puts them (`e`: the escaped words, or ""). */
  html: (e: string) => string;
  /** For script shapes: puts `msg` on the page. */
  show?: string;
  /** HTTP status of a re-rendered refusal (Rails with Turbo answers 422). */
  status?: number;
  /** What the login must end with, when not the usual (success; invalid_credentials for a wrong password). */
  expect?: Partial<LoginCase>;
}

export const input = (name: string, label: string, type = "text", attrs = "") =>
  `<label for="${name}">${label}</label><input id="${name}" name="${name}" type="${type}"${attrs ? ` ${attrs}` : ""}>`;
export const user = (name: string, label: string, attrs = 'autocomplete="username"') =>
  input(name, label, "text", attrs);
export const pass = (name: string, label: string, attrs = 'autocomplete="current-password"') =>
  input(name, label, "password", attrs);
export const when = (e: string, markup: string) => (e ? markup : "");
export const form = (fields: string, button: string, attrs = 'method="post"') =>
  `<form id="f" ${attrs}>${fields}<button type="submit">${button}</button></form>`;
