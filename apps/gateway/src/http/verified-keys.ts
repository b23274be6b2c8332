import { createHash } from "node:crypto";
import type { AuthenticatedKey, Database } from "@authsvc/db";
import type { Logger } from "@authsvc/logging";
import { currentRevocationMark, type RedisClient } from "@authsvc/queue";

export interface VerifiedKey extends AuthenticatedKey {
  /** The org's revocation mark, read before the key was last verified (see OrgRateLimit.take). */
  mark: string;
}

interface Entry extends VerifiedKey {
  expiresAt: number;
}

export interface VerifiedKeysOptions {
  /** How long a verified key is trusted without Postgres when no revocation is announced; a bound for revocations made outside our code. */
  ttlMs?: number;
  maxEntries?: number;
  /** How often lastUsedAt is written, for every key used since the last write. */
  flushEveryMs?: number;
}

/**
 * API keys verified in Postgres, kept in this process by the sha256 of the key so that a cached request
 * costs no database round trip. Only valid keys are kept. A revocation is seen at once through the
 * revocation mark, which the caller checks with every request (OrgRateLimit.take); `ttlMs` bounds the rest.
 * lastUsedAt is written in batches, not per request.
 */
export class VerifiedKeys {
  private readonly entries = new Map<string, Entry>();
  private readonly used = new Set<string>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly log: Logger,
    options: VerifiedKeysOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.timer = setInterval(() => void this.flush(), options.flushEveryMs ?? 30_000).unref();
  }

  /** The key's organization, from memory or else Postgres; null when the key is unknown, wrong or revoked. */
  async lookup(apiKey: string): Promise<VerifiedKey | null> {
    const hash = createHash("sha256").update(apiKey).digest("base64");
    const cached = this.entries.get(hash);
    if (cached && cached.expiresAt > Date.now()) return cached;
    this.entries.delete(hash);
    // The mark is the key's org's, so the key is read first; then it is verified again after the mark was read:
    // a revocation that landed before that read is seen by the second verification, one after it moves the mark
    // (and the entry goes stale).
    const known = await this.db.apiKeys.authenticate(apiKey);
    if (!known) return null;
    const mark = await currentRevocationMark(this.redis, this.prefix, known.orgId);
    const key = await this.db.apiKeys.authenticate(apiKey);
    if (!key) return null;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const entry = { ...key, mark, expiresAt: Date.now() + this.ttlMs };
    this.entries.set(hash, entry);
    return entry;
  }

  /** A revocation was announced in this org: each of its keys is verified again on its next use. */
  forgetOrg(orgId: string): void {
    for (const [hash, entry] of this.entries) if (entry.orgId === orgId) this.entries.delete(hash);
  }

  markUsed(apiKeyId: string): void {
    this.used.add(apiKeyId);
  }

  /** Writes lastUsedAt of the keys used since the last flush. */
  async flush(): Promise<void> {
    if (!this.used.size) return;
    const ids = [...this.used];
    this.used.clear();
    await this.db.apiKeys.markUsed(ids).catch((err: unknown) => this.log.warn({ err }, "could not record API key use"));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
