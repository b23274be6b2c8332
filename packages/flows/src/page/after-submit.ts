import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { newSayings, readNotes, type Saying, sentencesShown } from "./page-sayings";
import type { Note } from "./read-notes";
import { mergeSignals, type PageScan, type PageSignals, scanPage } from "./scan-page";
import { type Evidence, evidenceOnPage } from "./session-evidence";
import type { SessionSnapshot } from "./session-snapshot";
import { performStep } from "./steps";
import { quietOrShown } from "./quiet-or-shown";
import { type Next, watchPage } from "./watch-page";
import { WATCH_TIMING } from "./watch-timing";

// How long the page may take to answer a submit, a code or a link before the flow decides.
const SETTLE_MS = 10_000;
const MAX_INTERSTITIALS = 3;
// How much longer than SETTLE_MS a site still answering the submit itself (its POST in flight) is given.
const ANSWER_WAIT_MS = 30_000;

/** What one poll of the page after a submit saw. */
export interface Poll<X> {
  scans: PageScan;
  signals: PageSignals;
  /** The page's text blocks, when the watch reads them (`sayings`); else none. */
  notes: Note[];
  /** What the page newly says in plain text since the submit (see newSayings). */
  sayings: Saying[];
  /** What the flow's own reader (`read`) found. */
  extra: X;
  /** Messages not seen before the submit or the last action, then the dialogs the page opened. */
  fresh: string[];
  /** The poll before this one saw a success, and nothing was done to the page since. */
  successBefore: boolean;
  /** `navigation.moves()` just before the page was read (see `AfterSubmitOptions.navigation`). */
  moves: number;
  /** Whether the main frame waited for the site's answer to a navigation just before the page was read. */
  answering: boolean;
}

/**
 * What a flow makes of one poll: its verdict; `"again"`, poll again at once (after an action, or a
 * message to see settle); `"wait"`, nothing new, poll again (after a pause, unless a success was seen: then at once, to confirm it); or whether this poll looks
 * like success (`successBefore` on the next poll).
 */
export type PollResult<T> = { verdict: T } | "again" | "wait" | { success: boolean };

export interface AfterSubmitOptions<X> {
  /** What the page shows as typed in (a username in a field is not a message). */
  identifier: () => string;
  /** The browser before the submit: its messages are no verdict, its session state no success. */
  before: SessionSnapshot;
  /** HTTP status of the last document the main frame loaded since the submit (0: none yet). */
  status: () => number;
  /** Whether the page went on from the one the form was on (see `PageWatch.movedAway`); evidence of a session. */
  movedAway?: () => boolean;
  /** Messages of JavaScript dialogs the page opened, read on every poll. */
  dialogs: () => string[];
  /** Messages that are no verdict at all ("Creating your account…"). */
  ignore?: RegExp;
  /** Reads the page's plain text on each poll, for `sayings`. */
  sayings?: boolean;
  /** The flow's own reading of each poll, beside the page scan. */
  read?: () => Promise<X>;
  /** Called once the page went quiet, before it is read (a refused navigation ends the flow there). */
  check?: () => void;
  onStep?: (step: string) => void;
  settleMs?: number;
  /**
   * The main frame's navigations (a PageWatch). `answering`: whether it still waits for the site's answer to
   * one; the page shown then is the one the form went out from, no answer yet, so the clock does not run out
   * on it. `moves`: how many started or ended; a poll read before the last of them is of a page that has
   * gone, so the clock does not run out on that reading either (each up to ANSWER_WAIT_MS more, within the
   * deadline).
   */
  navigation?: { answering(): boolean; moves(): number };
  /**
   * Whether the page already shows what a verdict needs (a learned signed-in marker in a parsed
   * document): a poll then reads the page at once instead of waiting for the network to go quiet. It
   * only moves the reading earlier; the rules that judge the reading stay the same.
   */
  shownEarly?: () => Promise<boolean>;
  /** Whether the page has sent any of these values back to its site since the submit (see `PageWatch.sentBack`). */
  sentBack?: (tokens: string[]) => boolean;
}

/**
 * Watches the page after a form went out until the flow's rules find a verdict in a poll: each poll
 * waits for the network to go quiet (a second at most), reads every frame, and sets aside what the page
 * showed before; a success counts when the next poll sees it too. Acting on the page (a code, a link,
 * an interstitial question) restarts the clock, so the site has its time to answer that.
 */
export class AfterSubmit<X = undefined> {
  private stopAt: number;
  private successSeen = false;
  private answerUntil: number | undefined;
  private answerAwaited = false;
  private interstitials = 0;
  private readonly seen: Set<string>;
  private readonly seenSentences: Set<string>;
  // Refusals the site may repeat word for word after a resubmit: set aside while they stay shown.
  private readonly held = new Set<string>();

  constructor(
    private readonly page: Page,
    private readonly deadline: Deadline,
    private readonly options: AfterSubmitOptions<X>,
  ) {
    this.seen = new Set(options.before.messages);
    this.seenSentences = new Set(options.before.sentences);
    this.stopAt = this.until();
  }

  private until(): number {
    return Date.now() + Math.min(this.options.settleMs ?? SETTLE_MS, this.deadline.remaining());
  }

  /**
   * The flow acted on the page (sent a code, clicked, set a password): the site gets its full time again,
   * and its answer to this action the whole answer time (ANSWER_WAIT_MS) however long an earlier one took.
   * `forgetSuccess`: a success seen before counts no more.
   */
  restart(forgetSuccess = true): void {
    this.answerUntil = undefined;
    this.answerAwaited = false;
    this.restartClock(forgetSuccess);
  }

  private restartClock(forgetSuccess: boolean): void {
    this.stopAt = this.until();
    if (forgetSuccess) this.successSeen = false;
  }

  /** A message that is no verdict from now on. */
  see(message: string): void {
    this.seen.add(message);
  }

  /** A refusal the flow answered: no verdict while it stays shown on this document; shown again later, it is. */
  seeWhileShown(message: string): void {
    this.seen.add(message);
    this.held.add(message);
  }

  /** Sets aside everything the poll shows, then acts on the page and restarts the clock. */
  async act(poll: Poll<X>, action: () => Promise<void>): Promise<"again"> {
    this.seeShown(poll);
    await action();
    this.restart();
    return "again";
  }

  /** What the poll shows is the page as it was before the flow's next action: no verdict on that action. */
  seeShown(poll: Poll<X>): void {
    for (const m of poll.signals.messages) this.seen.add(m);
    for (const t of sentencesShown(poll.notes)) this.seenSentences.add(t);
  }

  /** Answers the page's interstitial question ("Stay signed in?"), a few times at the most; true when clicked. */
  async answerInterstitial(poll: Poll<X>): Promise<boolean> {
    const interstitial = poll.signals.interstitial;
    if (!interstitial || this.interstitials >= MAX_INTERSTITIALS) return false;
    this.interstitials++;
    this.options.onStep?.("answer interstitial question");
    const values = { identifier: "", password: "", additionalFields: {} };
    await performStep(
      this.page,
      { action: "click", purpose: "next", frame: interstitial.key, path: interstitial.reading.interstitial! },
      values,
    ).catch(() => false);
    return true;
  }

  /**
   * How far the page proves a new session (see session-evidence): none while a code or an email
   * confirmation is asked for, a frame could not be read or the site answered an HTTP error; else the
   * cookies and storage gained or changed since the submit, beyond those that rotate on their own, and
   * what the page shows.
   */
  async newSession(poll: Poll<X>): Promise<Evidence> {
    const { signals, scans } = poll;
    if (
      signals.otpPrompt ||
      signals.confirmByEmail ||
      signals.approvalPrompt ||
      scans.unreadable !== 0 ||
      this.options.status() >= 400
    )
      return "none";
    // The account shown: its sign-out control or menu, or its name where the page before the submit did not show it.
    const shows = {
      account: !!signals.signedIn || (signals.nameShown && this.options.before.nameShown === false),
      movedAway: this.options.movedAway?.() ?? false,
    };
    return evidenceOnPage(
      this.page,
      this.options.before.baseline,
      signals.storageEntries,
      shows,
      this.options.sentBack,
    );
  }

  /** Reads the page once it went quiet (see `watch`): one poll. */
  private async poll(): Promise<Poll<X>> {
    const { options, page } = this;
    const moves = options.navigation?.moves() ?? 0;
    const answering = options.navigation?.answering() ?? false;
    const [scans, notes, extra] = await Promise.all([
      scanPage(page, options.identifier()).catch(() => Object.assign([], { unreadable: 1 })),
      options.sayings ? readNotes(page) : [],
      options.read ? options.read() : (undefined as X),
    ]);
    const signals = mergeSignals(scans);
    for (const m of this.held) {
      if (options.status() !== 0 || !signals.messages.includes(m)) {
        this.seen.delete(m);
        this.held.delete(m);
      }
    }
    const fresh = signals.messages.filter((m) => !this.seen.has(m) && !options.ignore?.test(m));
    fresh.push(...options.dialogs());
    const sayings = newSayings(notes, this.seenSentences);
    return { scans, signals, notes, sayings, extra, fresh, successBefore: this.successSeen, moves, answering };
  }

  /**
   * The clock ran out while the site is still answering a navigation: it gets that time, up to a cap from
   * the first time the clock ran out.
   */
  private stillAnswered(): boolean {
    return !!this.options.navigation?.answering() && this.withinAnswerTime();
  }

  /**
   * The clock ran out on a poll that read the page before a navigation started or ended (the site's answer
   * landed while the poll read or was judged, or the page went on by itself): that reading is of a page
   * that has gone, and is no verdict while the site has its answer time.
   */
  private movedSince(poll: Poll<X>): boolean {
    return !!this.options.navigation && this.options.navigation.moves() !== poll.moves && this.withinAnswerTime();
  }

  private withinAnswerTime(): boolean {
    this.answerUntil ??= Date.now() + Math.min(ANSWER_WAIT_MS, this.deadline.remaining());
    return Date.now() < this.answerUntil;
  }

  /**
   * Polls until `judge` gives a verdict; once the clock ran out, `timeUp` has the last poll and gives it. Each
   * poll waits for the network to go quiet (at most `WATCH_TIMING.quietCapMs`), or less once `shownEarly`
   * says the page shows its answer; the clock is this watch's own, restarted by the flow's actions.
   */
  watch<T>(judge: (poll: Poll<X>) => Promise<PollResult<T>>, timeUp: (poll: Poll<X>) => T): Promise<T> {
    return watchPage(this.page, {
      deadline: this.deadline,
      clock: "decide",
      quietWait: () =>
        quietOrShown(
          this.page,
          Math.max(1, Math.min(WATCH_TIMING.quietCapMs, this.stopAt - Date.now())),
          this.options.shownEarly,
        ),
      check: () => this.options.check?.(),
      read: () => this.poll(),
      decide: async (poll): Promise<Next<T>> => {
        // Read while the main frame's document was still coming: the site's answer half shown (a server that
        // sends its page in pieces, a refusal first and the form seconds later, as a PHP page that flushes or
        // a loaded machine does). Its absences (no form, no refusal yet) are no verdict: the next look, once
        // the document is whole, is judged; a document that never ends is judged after the answer time. The
        // clock that runs out meanwhile gives the page the answer brings its full time, as below.
        if (poll.answering && (Date.now() < this.stopAt || this.withinAnswerTime())) {
          if (Date.now() >= this.stopAt) this.answerAwaited = true;
          return "wait";
        }
        const result = await judge(poll);
        if (result === "again") return "again";
        if (typeof result === "object" && "verdict" in result) return result;
        if (typeof result === "object") this.successSeen = result.success;
        if (Date.now() >= this.stopAt) {
          if (this.stillAnswered()) this.answerAwaited = true;
          else if (this.answerAwaited || (poll.answering && this.movedSince(poll))) {
            // The answer came after the clock ran out, or after this poll read the page while it waited for
            // it: the page it brought gets the site's full time.
            this.answerAwaited = false;
            this.restartClock(false);
          } else if (!this.movedSince(poll)) return { verdict: timeUp(poll) };
          // Else the page went on by itself while this poll read it (a refresh, a script's redirect): it is
          // read once more, on the clock that ran out, before the time-up verdict.
        }
        // A success seen once is confirmed after the next network quiet, without the polling pause.
        return this.successSeen ? "confirm" : "wait";
      },
    });
  }
}
