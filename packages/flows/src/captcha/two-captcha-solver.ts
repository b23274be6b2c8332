import type { CaptchaChallenge, CaptchaSolver } from "./pass-captcha";

/** A 2captcha-style solving service: `in.php` takes the task, `res.php` answers with the token once solved. */
export interface TwoCaptchaOptions {
  /** Base URL of the API: 2captcha's own, or another provider's that serves the same in.php/res.php API. */
  url: string;
  /** The operator's API key: a secret, sent only to that URL and never part of an error or a log. */
  key: string;
  /** The wait before each poll of res.php (the API asks for about 5 s). */
  pollMs?: number;
  /** A solve gives up after this long at most; the flow's own deadline may end it sooner. */
  maxWaitMs?: number;
}

/** Why a solve failed, in words safe to show the caller (the provider's error code, an HTTP status). */
export class CaptchaSolverError extends Error {
  override name = "CaptchaSolverError";
}

const METHODS: Record<CaptchaChallenge["kind"], { method: string; keyField: string }> = {
  recaptcha: { method: "userrecaptcha", keyField: "googlekey" },
  hcaptcha: { method: "hcaptcha", keyField: "sitekey" },
  turnstile: { method: "turnstile", keyField: "sitekey" },
};

// The provider's answers are codes like ERROR_ZERO_BALANCE; anything else is not repeated verbatim.
const safeCode = (text: string) => (/^[A-Z0-9_]{1,64}$/.test(text) ? text : "an unreadable answer");

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new CaptchaSolverError("gave up waiting for the solution (out of time)"));
    };
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
}

/** The CAPTCHA solver for any service that speaks 2captcha's in.php/res.php API (with `json=1`). */
export function twoCaptchaSolver(options: TwoCaptchaOptions): CaptchaSolver {
  const base = options.url.replace(/\/+$/, "");
  const pollMs = options.pollMs ?? 5000;
  const maxWaitMs = options.maxWaitMs ?? 180_000;

  /** One call; the URL (which may hold the key) never goes into an error. */
  async function call(
    path: "in.php" | "res.php",
    params: Record<string, string>,
    signal: AbortSignal,
  ): Promise<{ ok: boolean; request: string }> {
    const query = new URLSearchParams({ key: options.key, json: "1", ...params });
    let res: Response;
    try {
      // The task goes by POST (its page URL can be long); the poll is the API's GET.
      res =
        path === "in.php"
          ? await fetch(`${base}/in.php`, { method: "POST", body: query, signal })
          : await fetch(`${base}/res.php?${query}`, { signal });
    } catch (err) {
      if (signal.aborted) throw new CaptchaSolverError("gave up waiting for the solution (out of time)");
      const code = (err as { cause?: { code?: unknown } }).cause?.code;
      throw new CaptchaSolverError(`${path} could not be reached${typeof code === "string" ? ` (${code})` : ""}`);
    }
    const text = await res.text().catch(() => "");
    // Out of time while the answer was read: that, not a garbled answer.
    if (signal.aborted) throw new CaptchaSolverError("gave up waiting for the solution (out of time)");
    if (!res.ok) throw new CaptchaSolverError(`${path} answered HTTP ${res.status}`);
    let answer: { status?: unknown; request?: unknown };
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      throw new CaptchaSolverError(`${path} answered something that is not JSON (is the URL a 2captcha-style API?)`);
    }
    return { ok: answer.status === 1, request: String(answer.request ?? "") };
  }

  return {
    id: "2captcha",
    async solve(challenge, signal) {
      const limit = AbortSignal.timeout(maxWaitMs);
      const until = signal ? AbortSignal.any([signal, limit]) : limit;
      const { method, keyField } = METHODS[challenge.kind];
      const task = await call("in.php", { method, [keyField]: challenge.siteKey, pageurl: challenge.pageUrl }, until);
      if (!task.ok) throw new CaptchaSolverError(`in.php refused the task: ${safeCode(task.request)}`);
      for (;;) {
        await wait(pollMs, until);
        const result = await call("res.php", { action: "get", id: task.request }, until);
        if (result.ok && result.request) return { token: result.request };
        if (result.request !== "CAPCHA_NOT_READY")
          throw new CaptchaSolverError(`res.php answered ${safeCode(result.request)}`);
      }
    },
  };
}
