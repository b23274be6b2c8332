import { type CaptchaProvider, startCaptchaProvider, startTestSites, type TestSites } from "@authsvc/test-sites";
import { CaptchaSolverError, twoCaptchaSolver } from "./two-captcha-solver";

// The adapter against a provider on 127.0.0.1 that speaks 2captcha's in.php/res.php API; its token comes
// from a fixture site's CAPTCHA service, as a real provider's comes from the widget's.
const KEY = "operator-api-key-0123456789";
let sites: TestSites;
let provider: CaptchaProvider;

beforeAll(async () => {
  sites = await startTestSites();
  provider = await startCaptchaProvider({ key: KEY, notReadyPolls: 0 });
});
afterAll(async () => {
  await provider.close();
  await sites.close();
});
beforeEach(() => {
  provider.behaviour = { key: KEY, notReadyPolls: 0 };
  provider.tasks.length = 0;
});

const challenge = () => ({
  kind: "recaptcha" as const,
  siteKey: "6Lc_captcha",
  pageUrl: `${sites.url}/cases/captcha/login`,
});
const solver = (over: Partial<Parameters<typeof twoCaptchaSolver>[0]> = {}) =>
  twoCaptchaSolver({ url: provider.url, key: KEY, pollMs: 20, ...over });

async function errorOf(promise: Promise<unknown>): Promise<CaptchaSolverError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CaptchaSolverError);
  expect(String((err as Error).message)).not.toContain(KEY);
  return err as CaptchaSolverError;
}

describe("twoCaptchaSolver", () => {
  it("submits the task with the method and site key of each widget kind, then polls until the token", async () => {
    provider.behaviour.notReadyPolls = 3;
    const answer = await solver().solve(challenge());
    expect(answer?.token).toMatch(/^tok-/);
    const hcaptcha = await solver().solve({ ...challenge(), kind: "hcaptcha", siteKey: "10000000-ffff" });
    const turnstile = await solver().solve({ ...challenge(), kind: "turnstile", siteKey: "0x4AAA" });
    expect([hcaptcha?.token, turnstile?.token]).toEqual([
      expect.stringMatching(/^tok-/),
      expect.stringMatching(/^tok-/),
    ]);
    expect(provider.tasks).toEqual([
      { method: "userrecaptcha", googlekey: "6Lc_captcha", pageurl: challenge().pageUrl, json: "1" },
      { method: "hcaptcha", sitekey: "10000000-ffff", pageurl: challenge().pageUrl, json: "1" },
      { method: "turnstile", sitekey: "0x4AAA", pageurl: challenge().pageUrl, json: "1" },
    ]);
  });

  it("names the provider's error code, never the key", async () => {
    const wrongKey = await errorOf(
      twoCaptchaSolver({ url: provider.url, key: "not-the-key-000", pollMs: 20 }).solve(challenge()),
    );
    expect(wrongKey.message).toBe("in.php refused the task: ERROR_KEY_DOES_NOT_EXIST");
    provider.behaviour.failWith = "ERROR_CAPTCHA_UNSOLVABLE";
    expect((await errorOf(solver().solve(challenge()))).message).toBe("res.php answered ERROR_CAPTCHA_UNSOLVABLE");
  });

  it("says when the URL is not such an API or cannot be reached", async () => {
    expect((await errorOf(twoCaptchaSolver({ url: `${sites.url}/no-api`, key: KEY }).solve(challenge()))).message).toBe(
      "in.php answered HTTP 404",
    );
    const closed = await startCaptchaProvider({ key: KEY, notReadyPolls: 0 });
    await closed.close();
    expect((await errorOf(twoCaptchaSolver({ url: closed.url, key: KEY }).solve(challenge()))).message).toBe(
      "in.php could not be reached (ECONNREFUSED)",
    );
  });

  it("stops polling a slow solve when the flow runs out of time, and at its own limit", async () => {
    // A provider of its own, so that its poll count is this solve's alone.
    const slow = await startCaptchaProvider({ key: KEY, notReadyPolls: 1_000_000 });
    try {
      const stop = new AbortController();
      // The flow runs out of time as the provider takes a poll: that poll is the last one that can be in flight,
      // so once the solve has failed the count is final unless the solver polls again.
      let polls = 0;
      Object.defineProperty(slow, "polls", {
        get: () => polls,
        set: (n: number) => {
          polls = n;
          stop.abort();
        },
      });
      const solving = solver({ url: slow.url }).solve(challenge(), stop.signal);
      expect((await errorOf(solving)).message).toBe("gave up waiting for the solution (out of time)");
      const after = slow.polls;
      expect(after).toBe(1);

      // A solve that runs into its own limit (at least 300 ms, polling every 20 ms meanwhile): an event that comes
      // after the first solve's next polls would have, had it gone on.
      provider.behaviour.notReadyPolls = 1_000_000;
      expect((await errorOf(solver({ maxWaitMs: 300 }).solve(challenge()))).message).toBe(
        "gave up waiting for the solution (out of time)",
      );
      expect(slow.polls).toBe(after);
    } finally {
      await slow.close();
    }
  });
});
