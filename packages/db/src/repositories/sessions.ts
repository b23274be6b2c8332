import { newId, rowAad, type Envelope } from "@authsvc/crypto";
import { answerOf, type CapturedSession, type SessionResponse } from "@authsvc/contracts";
import type { Prisma } from "../prisma-client";
import type { Prisma as Schema } from "../generated/prisma/client";

/** What keep-alive reads of a session it may refresh, check or report: never its state. */
const DUE_SESSION = {
  id: true,
  orgId: true,
  expiresAt: true,
  revokedAt: true,
  seenAliveAt: true,
  credential: {
    select: {
      id: true,
      siteOrigin: true,
      loginPage: true,
      loginUrl: true,
      username: true,
      lastLoginAt: true,
      lastErrorCode: true,
      collection: { select: { externalId: true } },
      sessions: { orderBy: { createdAt: "desc" }, take: 1, select: { id: true } },
      // A refresh still running may replace a revoked session: it is reported only once none is.
      authJobs: { where: { status: { in: ["queued", "running"] } }, take: 1, select: { id: true } },
    },
  },
} satisfies Schema.SessionSelect;

export class Sessions {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  /** `state` keeps its signed-in page (for the session check) inside the encrypted state; answers never show it. */
  async create(input: {
    orgId: string;
    credentialId: string;
    origin: string;
    state: CapturedSession;
    expiresAt: Date;
  }) {
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
    const due = await this.findDue(
      {
        keepaliveAt: null,
        OR: [
          // Alive: only those a refresh can replace (the credential logged in and is not failing); the
          // others matter once they end.
          { expiresAt: { gt: now, lte: refreshBefore }, credential: refreshable },
          ...(oldBefore ? [{ expiresAt: { gt: now }, createdAt: { lte: oldBefore }, credential: refreshable }] : []),
          { expiresAt: { gt: expiredSince, lte: now } },
        ],
      },
      { expiresAt: "asc" },
      limit,
    );
    return due.map((r) => ({ ...r, expired: r.expiresAt <= now }));
  }

  /**
   * Sessions keep-alive found due (`where`, in `orderBy` order): each credential's newest, with the job
   * that made it (its fingerprint is the key the session is cached under). A session a newer login
   * replaced needs nothing: it is marked handled, so it does not come back.
   */
  private async findDue(
    where: Schema.SessionWhereInput,
    orderBy: Schema.SessionOrderByWithRelationInput,
    limit: number,
  ) {
    const rows = await this.prisma.session.findMany({ where, orderBy, take: limit, select: DUE_SESSION });
    await this.markKeptAlive(rows.filter((r) => r.credential.sessions[0]?.id !== r.id).map((r) => r.id));
    const newest = rows.filter((r) => r.credential.sessions[0]?.id === r.id);
    const jobs = await this.prisma.authJob.findMany({
      where: { sessionId: { in: newest.map((r) => r.id) } },
      select: { sessionId: true, fingerprint: true },
    });
    const jobOf = new Map(jobs.map((j) => [j.sessionId!, j]));
    return newest.map((r) => ({ ...r, job: jobOf.get(r.id) ?? null }));
  }

  async markKeptAlive(ids: string[]): Promise<void> {
    if (ids.length)
      await this.prisma.session.updateMany({ where: { id: { in: ids } }, data: { keepaliveAt: new Date() } });
  }

  /**
   * The decrypted state of one of the org's sessions as the API answers it, with the page the session check
   * fetches (`signedInPage`, absent for sessions stored before it was kept), or null when there is none.
   */
  async findState(
    orgId: string,
    id: string,
  ): Promise<{ state: SessionResponse; signedInPage?: string; expiresAt: Date } | null> {
    const row = await this.prisma.session.findFirst({ where: { id, orgId }, omit: { state: false } });
    if (!row) return null;
    const captured = this.envelope.decryptJson<CapturedSession>(row.state, rowAad(orgId, id));
    return { state: answerOf(captured), signedInPage: captured.signedInPage, expiresAt: row.expiresAt };
  }

  /**
   * Sessions whose health is due a check, across tenants: each credential's newest, alive, not handled by
   * keep-alive, last checked before `checkedBefore`; least recently checked first. With the key it is cached
   * under (its job's fingerprint) and what a refresh needs.
   */
  async dueForCheck(now: Date, checkedBefore: Date, limit: number) {
    return this.findDue(
      {
        keepaliveAt: null,
        revokedAt: null,
        expiresAt: { gt: now },
        OR: [{ lastCheckedAt: null }, { lastCheckedAt: { lt: checkedBefore } }],
      },
      { lastCheckedAt: "asc" },
      limit,
    );
  }

  /** Records a check of a session: when it ran (the next is due SESSION_CHECK_MAX_AGE later), and whether it found the session signed in. */
  async markChecked(id: string, alive: boolean, at = new Date()): Promise<void> {
    await this.prisma.session.updateMany({
      where: { id },
      data: alive ? { lastCheckedAt: at, seenAliveAt: at } : { lastCheckedAt: at },
    });
  }

  /**
   * Records that the site ended a session (a check found it signed out): it ends now, and keep-alive reports
   * it (`session.expired`, reason `revoked`) unless a refresh replaces it.
   */
  async markRevoked(id: string, at = new Date()): Promise<void> {
    await this.prisma.session.updateMany({
      where: { id, revokedAt: null },
      data: { revokedAt: at, lastCheckedAt: at, expiresAt: at },
    });
  }

  /** The org's sessions that have not expired, newest first; metadata only (never the state). */
  listLive(orgId: string, limit: number) {
    return this.prisma.session.findMany({
      where: { orgId, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: "desc" },
      take: limit,
      select: {
        id: true,
        origin: true,
        expiresAt: true,
        createdAt: true,
        credential: { select: { id: true, username: true, loginPage: true } },
      },
    });
  }

  /**
   * Drops one of the org's sessions. Returns the cache keys it was served under (the caller drops those
   * from the cache too), or null when the org has no such session.
   */
  async remove(orgId: string, id: string): Promise<string[] | null> {
    const jobs = await this.prisma.authJob.findMany({
      where: { orgId, sessionId: id },
      select: { fingerprint: true },
      distinct: ["fingerprint"],
    });
    const { count } = await this.prisma.session.deleteMany({ where: { id, orgId } });
    return count > 0 ? jobs.map((j) => j.fingerprint) : null;
  }
}
