import type { Page } from "@authsvc/browser";
import { type LoginFailureCode, refusalCode, siteFault, speaksOfLogin } from "@authsvc/contracts";
import { type Note, readNotesInPage } from "./read-notes";
import { readFrames } from "./scan-page";

/**
 * What a page says in plain text, compared with what it said before one of our steps: the one way every
 * step's answer is read (the identifier, the password, a one-time code), whatever the site's markup.
 */
export const sentencesOf = (text: string) =>
  text
    .split(/\n+|(?<=[.!?])\s+/)
    .map((t) => t.trim())
    .filter((t) => t.length > 3 && t.length < 300);

/** The text blocks of every frame (see readNotesInPage); a frame that cannot be read adds none. */
export async function readNotes(page: Page): Promise<Note[]> {
  return (await readFrames(page, readNotesInPage).catch(() => [])).flatMap((s) => s.reading);
}

/** Every sentence the page shows: what a later reading compares against. */
export const sentencesShown = (notes: Note[]) => notes.flatMap((n) => sentencesOf(n.text));

export interface Saying {
  /** The whole block, the site's words as a person reads them. */
  block: string;
  /** Its sentences not seen before. */
  news: string;
}

/**
 * What the page newly says in plain text about the login: blocks near the form or in the content that
 * speak of it, with their sentences not seen before ("Incorrect email or password." in a `<p>`).
 */
export function newSayings(notes: Note[], seen: ReadonlySet<string>): Saying[] {
  // A countdown ("Resend in 0:29", "try again in 30 seconds") is the same sentence each second; a count
  // of attempts left is not, so only times are set aside.
  const shape = (t: string) =>
    t.replace(/\d+:\d\d|\d+\s*(s|secs?|seconds?|sekunden|secondes?|segundos?|secondi|seconden)\b/gi, "#");
  const seenShapes = new Set([...seen].map(shape));
  return notes
    .filter((n) => n.near && speaksOfLogin(n.text))
    .flatMap((n) => {
      const news = sentencesOf(n.text).filter((t) => !seenShapes.has(shape(t)));
      return news.length > 0 ? [{ block: n.text, news: news.join(" ") }] : [];
    });
}

/**
 * The verdict of the first new saying that refuses the step, as `refused` (the step's own code:
 * invalid_credentials for an identifier, verification_failed for a code); a lock, a CAPTCHA and the
 * site's own fault keep theirs. Null when the page only says neutral things ("Enter the code we sent").
 */
export function refusalSaid(
  sayings: Saying[],
  refused: LoginFailureCode,
): { code: LoginFailureCode; message: string } | null {
  const refusals = sayings.flatMap((s) => {
    const code = refusalCode(s.news);
    return code ? [{ code, message: s.block, fault: siteFault(s.news) }] : [];
  });
  const refusal = refusals.find((r) => !r.fault) ?? refusals[0];
  if (!refusal) return null;
  const kept = refusal.code === "account_locked" || refusal.code === "captcha_blocked" || refusal.fault;
  return { code: kept ? refusal.code : refused, message: refusal.message };
}
