import type { Cookie } from "@authsvc/contracts";
import { fingerprint } from "@authsvc/crypto";
import type { Database, ProviderAccountKey } from "@authsvc/db";
import type { SingleFlight } from "@authsvc/queue";

// A provider session with only browser-session cookies is kept this long (the provider ends it when it likes).
const SESSION_COOKIES_KEPT_MS = 12 * 3600_000;
// However long the provider's cookies say, a kept session is tried again at most this long after it was made.
const MAX_KEPT_MS = 30 * 24 * 3600_000;
const WAIT_STEP_MS = 250;

/** The provider's verdicts that say the kept session is no good: the next login signs in afresh. */
const SESSION_SPENT = new Set(["invalid_credentials", "provider_blocked", "account_locked"]);

/**
 * One home for provider accounts in the worker: their kept sessions (loaded before an OAuth login, saved
 * after it) and their turn. Logins through one provider account run one at a time, so two sites' logins
 * never both type its password: the second waits, then starts from the session the first kept.
 */
export class ProviderAccounts {
  constructor(
    private readonly db: Database,
    private readonly flight: SingleFlight,
    private readonly fingerprintKey: Buffer,
  ) {}

  /**
   * Runs `login` with the account's kept provider cookies, holding the account's turn; keeps the cookies
   * it returns. `waitMs`: how long to wait for the turn (then the login runs anyway, without it).
   */
  async withAccount<T extends { providerCookies: Cookie[] }>(
    key: ProviderAccountKey,
    owner: string,
    waitMs: number,
    login: (kept: Cookie[]) => Promise<T>,
  ): Promise<T> {
    const turn = fingerprint(this.fingerprintKey, [
      "provider-account/v1",
      key.scope,
      key.provider,
      key.account.toLowerCase(),
    ]);
    const held = await this.takeTurn(key.orgId, turn, owner, waitMs);
    try {
      const kept = (await this.db.providerSessions.find(key).catch(() => null)) ?? [];
      let result: T;
      try {
        result = await login(kept);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code && SESSION_SPENT.has(code)) await this.db.providerSessions.forget(key).catch(() => undefined);
        throw err;
      }
      if (result.providerCookies.length > 0)
        await this.db.providerSessions
          .save(key, result.providerCookies, keptUntil(result.providerCookies))
          .catch(() => undefined);
      return result;
    } finally {
      if (held) await this.flight.release(key.orgId, turn, owner).catch(() => undefined);
    }
  }

  private async takeTurn(orgId: string, turn: string, owner: string, waitMs: number): Promise<boolean> {
    const until = Date.now() + waitMs;
    for (;;) {
      const other = await this.flight.claim(orgId, turn, owner, waitMs + 60_000).catch(() => null);
      if (other === null) return true;
      if (other === owner) return true;
      if (Date.now() >= until) return false;
      await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
    }
  }
}

/** Until the provider's last persistent cookie ends (capped), or a while when all end with the browser. */
function keptUntil(cookies: Cookie[]): Date {
  const now = Date.now();
  const latest = Math.max(0, ...cookies.filter((c) => c.expires > 0).map((c) => c.expires * 1000));
  return new Date(Math.min(latest > now ? latest : now + SESSION_COOKIES_KEPT_MS, now + MAX_KEPT_MS));
}
