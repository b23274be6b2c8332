import type { Page } from "@authsvc/browser";
import { type Deadline, sleep } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { performStep } from "../page/steps";
import { type CaptchaReading, type CaptchaWidget, enterCaptchaTokenInPage, readCaptchaInPage } from "./read-captcha";
import { readFrames } from "../page/scan-page";
import { type Next, watchPage } from "../page/watch-page";
import { type Handoff, promptOf } from "../handoff";

/** What a solving service needs to solve a widget, as puppeteer-extra-plugin-recaptcha's providers take it. */
export interface CaptchaChallenge {
  kind: "recaptcha" | "hcaptcha" | "turnstile";
  siteKey: string;
  pageUrl: string;
}

/**
 * An operator-configured CAPTCHA solving service (off unless one is given). It answers with the token the
 * widget would have produced, or null (or throws, saying why) when it could not solve the challenge; it
 * stops when `signal` aborts (the flow ran out of time).
 */
export interface CaptchaSolver {
  /** Names the provider in the steps log. */
  id: string;
  solve(challenge: CaptchaChallenge, signal?: AbortSignal): Promise<{ token: string } | null>;
}

// How long a managed widget (Turnstile) or a ticked checkbox may take to leave its token.
const CAPTCHA_WAIT_MS = 8000;

const NO_VALUES = { identifier: "", password: "", additionalFields: {} };

/**
 * A person who may solve a challenge in the live view of the hand-off (the caller allowed one), and the form
 * they may send themselves once they did (pressing Enter in the challenge's field, as people do).
 */
export interface CaptchaPerson {
  handoff: Handoff;
  /** Called before the person is asked: from then on the form may go out by their hand. */
  beforeAsk(): Promise<void>;
  /** Whether the form still holds what the flow typed in it: not once it went out, or the page went on; null while a document is replaced. */
  formHeld(): Promise<boolean | null>;
}

/** `passed`: the flow sends the form now; `sent`: the person sent it (the site's answer is next). */
export type CaptchaPassage = "passed" | "sent";

// How often the page is looked at while a person solves a challenge, and how many "look again" answers count.
const PERSON_LOOK_MS = 500;
const PERSON_TRIES = 3;

/**
 * Just before a form is sent: leaves invisible CAPTCHAs to run by themselves, waits for a managed one's
 * token, ticks a checkbox once, and stops with `captcha_blocked` — nothing sent — at an image or puzzle
 * challenge or a widget that never passes, unless the solver answers it or a person solves it.
 */
export async function passCaptcha(
  page: Page,
  deadline: Deadline,
  solver: CaptchaSolver | undefined,
  step: (name: string) => void,
  person?: CaptchaPerson,
): Promise<CaptchaPassage> {
  let ticked = false;
  type Scans = Awaited<ReturnType<typeof readCaptchaScans>>;
  // A challenge, or a widget that did not pass in time: the solver, a person, or the end of the flow.
  const solve = async (scans: Scans): Promise<CaptchaPassage> => {
    const widgets = scans.flatMap((s) => s.reading.widgets);
    const challenge = widgets.find((w) => w.mode === "challenge");
    const target = widgets.find(
      (w): w is CaptchaWidget & { siteKey: string; provider: CaptchaChallenge["kind"] } =>
        !!w.siteKey && w.provider !== "image",
    );
    const frame = target && scans.find((s) => s.reading.widgets.includes(target))?.frame;
    let why = "";
    if (solver && target && frame) {
      step(`ask the CAPTCHA solver (${solver.id})`);
      let timer: NodeJS.Timeout | undefined;
      const stop = new AbortController();
      const answer = await Promise.race([
        solver
          .solve({ kind: target.provider, siteKey: target.siteKey, pageUrl: frame.url() }, stop.signal)
          .catch((err: unknown) => {
            why = `; the CAPTCHA solver (${solver.id}) failed: ${err instanceof Error ? err.message : String(err)}`;
            return null;
          }),
        new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), deadline.remaining()))),
      ]).finally(() => {
        clearTimeout(timer);
        stop.abort();
      });
      if (answer) {
        await frame.evaluate(enterCaptchaTokenInPage, target.provider, answer.token);
        return "passed";
      }
      why ||= `; the CAPTCHA solver (${solver.id}) gave no token`;
    }
    if (person) return askPerson(page, person, scans.map((s) => s.reading.prompt).find((p) => p) ?? "", step);
    throw new LoginFlowError(
      "captcha_blocked",
      `${challenge ? "the login form shows a CAPTCHA challenge" : "the login form's CAPTCHA was not passed"}${why}`,
    );
  };
  return watchPage(page, {
    deadline,
    ms: CAPTCHA_WAIT_MS,
    quiet: false,
    read: () => readCaptchaScans(page),
    decide: async (scans): Promise<Next<CaptchaPassage>> => {
      const widgets = scans.flatMap((s) => s.reading.widgets);
      const challenge = widgets.find((w) => w.mode === "challenge");
      if (!widgets.some((w) => w.mode !== "invisible")) return { verdict: "passed" };
      if (!challenge && scans.some((s) => s.reading.token)) return { verdict: "passed" };
      const box = scans.find((s) => s.reading.checkbox && !s.reading.checked);
      if (!challenge && box && !ticked) {
        ticked = true;
        step("tick the CAPTCHA checkbox");
        await performStep(
          page,
          { action: "click", purpose: "captcha", frame: box.key, path: box.reading.checkbox! },
          NO_VALUES,
        ).catch(() => false);
        return "again";
      }
      return challenge ? { verdict: await solve(scans) } : "wait";
    },
    timeUp: (scans) => solve(scans!),
  });
}

const readCaptchaScans = (page: Page) => readFrames(page, readCaptchaInPage);

/** Whether nothing is left to solve: no challenge open (an image one counts once its field holds an answer), and a checkbox's token is there. */
function passed(scans: Array<{ reading: CaptchaReading }>, filledCounts: boolean): boolean {
  const widgets = scans.flatMap((s) => s.reading.widgets);
  if (widgets.some((w) => w.mode === "challenge" && !(filledCounts && w.provider === "image" && w.filled)))
    return false;
  const waiting = widgets.some((w) => w.mode === "checkbox" || w.mode === "managed");
  return !waiting || scans.some((s) => s.reading.token);
}

/**
 * A person solves the challenge in the hand-off's live view. The page is watched meanwhile: a widget that
 * passes (its token there, its challenge closed) lets the flow send the form; a form that went out was sent by
 * the person. An answer (`{}`: "done, look again") is checked against the page, and asked again when nothing
 * was solved. The site judges the answer; the engine reads its verdict as for any submit.
 */
async function askPerson(
  page: Page,
  person: CaptchaPerson,
  said: string,
  step: (name: string) => void,
): Promise<CaptchaPassage> {
  await person.beforeAsk();
  const prompt = promptOf(said) || "The site shows a CAPTCHA challenge only a person can solve.";
  for (let tries = 1; ; tries++) {
    step(tries === 1 ? "ask a person to solve the CAPTCHA" : "ask a person again to solve the CAPTCHA");
    const withdraw = new AbortController();
    const asked = person.handoff.ask({ reason: "captcha", prompt, fields: [] }, withdraw.signal);
    asked.catch(() => undefined);
    const onPage = (async (): Promise<CaptchaPassage | null> => {
      while (!withdraw.signal.aborted) {
        await sleep(PERSON_LOOK_MS);
        if (withdraw.signal.aborted) break;
        // The page first, then the form: a document that replaced the form in between is seen as sent.
        const scans = await readFrames(page, readCaptchaInPage).catch(() => null);
        const held = await person.formHeld();
        if (held === false) return "sent";
        if (held === null) continue;
        if (scans && passed(scans, false)) return "passed";
      }
      return new Promise<null>(() => undefined);
    })();
    let seen: CaptchaPassage | "answered";
    try {
      seen = await Promise.race([asked.then(() => "answered" as const), onPage.then((p) => p!)]);
    } finally {
      withdraw.abort();
    }
    if (seen !== "answered") return seen;
    const scans = await readFrames(page, readCaptchaInPage).catch(() => []);
    const held = await person.formHeld();
    if (held === false) return "sent";
    if (held === true && passed(scans, true)) return "passed";
    if (tries >= PERSON_TRIES)
      throw new LoginFlowError(
        "captcha_blocked",
        `the CAPTCHA was still not solved after ${PERSON_TRIES} answers from a person`,
      );
  }
}
