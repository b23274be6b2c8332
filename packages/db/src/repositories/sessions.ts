import { newId, rowAad, type Envelope } from "@authsvc/crypto";
import type { SessionResponse } from "@authsvc/contracts";
import type { Prisma } from "../prisma-client";

export class Sessions {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  async create(input: { orgId: string; credentialId: string; origin: string; state: SessionResponse; expiresAt: Date }) {
    const id = newId("ses");
    await this.prisma.session.create({
      data: {
        id,
        orgId: input.orgId,
        credentialId: input.credentialId,
        origin: input.origin,
        state: this.envelope.encryptJson(input.state, rowAad(input.orgId, id)),
        expiresAt: input.expiresAt,
        lastCheckedAt: new Date(),
      },
    });
    return id;
  }

  /** Retention sweep, across all tenants: deletes sessions that expired before `cutoff`. */
  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    return (await this.prisma.session.deleteMany({ where: { expiresAt: { lt: cutoff } } })).count;
  }

  /**
   * Sessions the keep-alive job has not handled yet, across tenants, that are each their credential's
   * newest: `refresh` — alive and expiring before `refreshBefore` (or created before `oldBefore`);
   * `expired` — ended since `expiredSince`. With what a refresh needs: the credential and its last job.
   */
  async dueForKeepAlive(now: Date, refreshBefore: Date, oldBefore: Date | null, expiredSince: Date, limit = 100) {
    const refreshable = { lastLoginAt: { not: null }, lastErrorCode: null };
    const rows = await this.prisma.session.findMany({
      where: {
        keepaliveAt: null,
        OR: [
          // Alive: only those a refresh can replace (the credential logged in and is not failing); the
          // others matter once they end.
          { expiresAt: { gt: now, lte: refreshBefore }, credential: refreshable },
          ...(oldBefore ? [{ expiresAt: { gt: now }, createdAt: { lte: oldBefore }, credential: refreshable }] : []),
          { expiresAt: { gt: expiredSince, lte: now } },
        ],
      },
      orderBy: { expiresAt: "asc" },
      take: limit,
      select: {
        id: true,
        orgId: true,
        expiresAt: true,
        credential: {
          select: {
            id: true, siteOrigin: true, loginPage: true, loginUrl: true, username: true, lastLoginAt: true, lastErrorCode: true,
            collection: { select: { externalId: true } },
            sessions: { orderBy: { createdAt: "desc" }, take: 1, select: { id: true } },
          },
        },
      },
    });
    // A session a newer login replaced needs nothing: mark it handled, so it does not come back.
    const superseded = rows.filter((r) => r.credential.sessions[0]?.id !== r.id).map((r) => r.id);
    await this.markKeptAlive(superseded);
    const newest = rows.filter((r) => r.credential.sessions[0]?.id === r.id);
    const jobs = await this.prisma.authJob.findMany({ where: { sessionId: { in: newest.map((r) => r.id) } }, select: { sessionId: true, fingerprint: true } });
    const jobOf = new Map(jobs.map((j) => [j.sessionId!, j]));
    return newest.map((r) => ({ ...r, expired: r.expiresAt <= now, job: jobOf.get(r.id) ?? null }));
  }

  async markKeptAlive(ids: string[]): Promise<void> {
    if (ids.length) await this.prisma.session.updateMany({ where: { id: { in: ids } }, data: { keepaliveAt: new Date() } });
  }

  /** The decrypted state of one of the org's sessions, or null when there is none. */
  async findState(orgId: string, id: string): Promise<{ state: SessionResponse; expiresAt: Date } | null> {
    const row = await this.prisma.session.findFirst({ where: { id, orgId }, omit: { state: false } });
    if (!row) return null;
    return { state: this.envelope.decryptJson<SessionResponse>(row.state, rowAad(orgId, id)), expiresAt: row.expiresAt };
  }

  /** The org's sessions that have not expired, newest first; metadata only (never the state). */
  listLive(orgId: string, limit: number) {
    return this.prisma.session.findMany({
      where: { orgId, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: "desc" },
      take: limit,
      select: { id: true, origin: true, expiresAt: true, createdAt: true, credential: { select: { id: true, username: true, loginPage: true } } },
    });
  }

  /**
   * Drops one of the org's sessions. Returns the cache keys it was served under (the caller drops those
   * from the cache too), or null when the org has no such session.
   */
  async remove(orgId: string, id: string): Promise<string[] | null> {
    const jobs = await this.prisma.authJob.findMany({ where: { orgId, sessionId: id }, select: { fingerprint: true }, distinct: ["fingerprint"] });
    const { count } = await this.prisma.session.deleteMany({ where: { id, orgId } });
    return count > 0 ? jobs.map((j) => j.fingerprint) : null;
  }
}
