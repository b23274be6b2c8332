import type { ElementHandle, Frame, Page } from "@authsvc/browser";
import { captchaBlocks, readCaptchaInPage } from "../captcha/read-captcha";
import { resolvePathInPage } from "./in-page/resolve-path";
import { methodWordsOf, PERSON_STEP_WORDS, SIGN_OUT_WORDS } from "@authsvc/contracts";
import { type FrameReading, readFrameInPage, type SelectorPath } from "./read-page";

// The method words the in-page reader is given (see method-words.ts in @authsvc/contracts).
const METHOD_WORDS_IN_PAGE = { password: methodWordsOf("password"), otherWay: methodWordsOf("otherWay") };

export interface FrameScan {
  frame: Frame;
  /** Names the frame across logins: "main", or the origin and path of an iframe's document. */
  key: string;
  reading: FrameReading;
}

export function frameKey(page: Page, frame: Frame): string {
  if (frame === page.mainFrame()) return "main";
  try {
    const url = new URL(frame.url());
    return `${url.origin}${url.pathname}`;
  } catch {
    return frame.url();
  }
}

/** The frames a login form can live in: the page and its iframes (same-origin and cross-origin alike). */
function liveFrames(page: Page): Frame[] {
  return page.frames().filter((f) => !f.detached && /^(https?:|about:blank)/.test(f.url()));
}

// A frame that does not answer in this time (a page stuck in a script) is read again on the next poll.
const READ_TIMEOUT_MS = 3000;

/** What a read of the page found: the frames that answered, and how many did not (navigating, stuck). */
export type PageScan = FrameScan[] & { unreadable: number };

/**
 * Runs a reader in every frame of the page. A frame that is navigating, goes away or does not answer
 * while we read is left out and counted; the caller reads again on its next poll.
 */
export async function readFrames<T, A extends unknown[]>(
  page: Page,
  reader: (...args: A) => T,
  ...args: A
): Promise<Array<{ frame: Frame; key: string; reading: Awaited<T> }> & { unreadable: number }> {
  const scans = await Promise.all(
    liveFrames(page).map(async (frame) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const reading = (await Promise.race([
          frame.evaluate(reader as (...a: unknown[]) => T, ...args),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error("frame did not answer")), READ_TIMEOUT_MS);
          }),
        ])) as Awaited<T>;
        return { frame, key: frameKey(page, frame), reading };
      } catch {
        return null;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const read = scans.filter((s): s is { frame: Frame; key: string; reading: Awaited<T> } => s !== null);
  return Object.assign(read, { unreadable: scans.length - read.length });
}

/** What every frame shows of a login page (see readFrameInPage), and whether it shows a CAPTCHA a person must answer. */
export async function scanPage(page: Page, identifier: string, extraKeys: string[] = []): Promise<PageScan> {
  const [scans, captchas] = await Promise.all([
    readFrames(page, readFrameInPage, identifier, extraKeys, SIGN_OUT_WORDS, PERSON_STEP_WORDS, METHOD_WORDS_IN_PAGE),
    readFrames(page, readCaptchaInPage),
  ]);
  const blocking = new Set(captchas.filter((c) => captchaBlocks(c.reading)).map((c) => c.frame));
  const read = scans.map((s) => ({ ...s, reading: { ...s.reading, captcha: blocking.has(s.frame) } }));
  return Object.assign(read, { unreadable: scans.unreadable });
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export function findFrame(page: Page, key: string): Frame | null {
  return liveFrames(page).find((f) => frameKey(page, f) === key) ?? null;
}

/** The element a selector path names in a frame, or null when the page no longer has it. */
export async function resolveElement(frame: Frame, path: SelectorPath): Promise<ElementHandle<Element> | null> {
  try {
    const handle = await frame.evaluateHandle(resolvePathInPage, path);
    const el = handle.asElement() as ElementHandle<Element> | null;
    if (!el) await handle.dispose();
    return el;
  } catch {
    return null;
  }
}

/** Merges what all frames show into one picture of the page, for the verdict. */
export interface PageSignals {
  passwordShown: boolean;
  identifierOnlyShown: boolean;
  captcha: boolean;
  otpPrompt: boolean;
  confirmByEmail: boolean;
  approvalPrompt: boolean;
  /** The frame that asks a security question, or that shows a chooser (see FrameReading). */
  question: FrameScan | null;
  chooser: FrameScan | null;
  /** The frame that asks to verify it's you, or that holds the sign-in until the terms are accepted. */
  verify: FrameScan | null;
  terms: FrameScan | null;
  messages: string[];
  validation: string | null;
  storage: string;
  /** The same, an entry each (`origin|key`, value): what session evidence compares. */
  storageEntries: Array<[string, string]>;
  interstitial: FrameScan | null;
  signedIn: FrameScan | null;
  /** Some frame shows the account's name as text (see FrameReading.nameShown). */
  nameShown: boolean;
  /** Some frame holds a sign-out control, shown or not (see FrameReading.signOutHeld). */
  signOutHeld: boolean;
}

export function mergeSignals(scans: FrameScan[]): PageSignals {
  return {
    passwordShown: scans.some((s) => s.reading.password),
    identifierOnlyShown: scans.some((s) => s.reading.identifier && !s.reading.password),
    captcha: scans.some((s) => s.reading.captcha),
    otpPrompt: scans.some((s) => s.reading.otpPrompt),
    confirmByEmail: scans.some((s) => s.reading.confirmByEmail),
    approvalPrompt: scans.some((s) => s.reading.approvalPrompt),
    question: scans.find((s) => s.reading.question) ?? null,
    chooser: scans.find((s) => s.reading.chooser) ?? null,
    verify: scans.find((s) => s.reading.verify) ?? null,
    terms: scans.find((s) => s.reading.terms) ?? null,
    messages: [...new Set(scans.flatMap((s) => s.reading.messages))],
    validation: scans.find((s) => s.reading.validation)?.reading.validation ?? null,
    // Per origin, so that an iframe coming or going does not look like new session state.
    storage: [...new Map(scans.map((s) => [originOf(s.reading.url), s.reading.storage])).entries()]
      .map(([origin, storage]) => `${origin}:${storage}`)
      .sort()
      .join("\n"),
    storageEntries: [...new Map(scans.map((s) => [originOf(s.reading.url), s.reading.storage])).entries()].flatMap(
      ([origin, storage]) =>
        storage
          .split("&")
          .filter(Boolean)
          .map((kv): [string, string] => {
            const at = kv.indexOf("=");
            return [`${origin}|${at < 0 ? kv : kv.slice(0, at)}`, at < 0 ? "" : kv.slice(at + 1)];
          }),
    ),
    interstitial: scans.find((s) => s.reading.interstitial) ?? null,
    signedIn: scans.find((s) => s.reading.signedIn) ?? null,
    nameShown: scans.some((s) => s.reading.nameShown),
    signOutHeld: scans.some((s) => s.reading.signOutHeld),
  };
}
