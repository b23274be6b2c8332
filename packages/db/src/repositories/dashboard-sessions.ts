import { createHash, randomBytes } from "node:crypto";
import { newId } from "@authsvc/crypto";
import type { Prisma } from "../prisma-client";

const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
// last_seen_at is bookkeeping: written at most this often per session.
const TOUCH_INTERVAL_MS = 60_000;

export interface SignedInSession {
  id: string;
  csrfSecret: string;
  expiresAt: Date;
  user: { id: string; email: string; isPlatformAdmin: boolean };
}

/**
 * Signed-in browsers. The cookie carries a random token; the row keeps its sha256, so a database read
 * never yields a usable cookie. Each session has its own CSRF secret, rotated with the session.
 */
export class DashboardSessions {
  constructor(private readonly prisma: Prisma) {}

  async create(userId: string, ttlMs: number): Promise<{ token: string; session: SignedInSession }> {
    const token = randomBytes(32).toString("base64url");
    const row = await this.prisma.dashboardSession.create({
      data: {
        id: newId("dse"),
        tokenHash: hashToken(token),
        userId,
        csrfSecret: randomBytes(32).toString("base64url"),
        expiresAt: new Date(Date.now() + ttlMs),
      },
      select: {
        id: true,
        csrfSecret: true,
        expiresAt: true,
        user: { select: { id: true, email: true, isPlatformAdmin: true } },
      },
    });
    return { token, session: row };
  }

  /** The live session a cookie token names, or null (unknown or expired). */
  async find(token: string): Promise<SignedInSession | null> {
    const row = await this.prisma.dashboardSession.findUnique({
      where: { tokenHash: hashToken(token) },
      select: {
        id: true,
        csrfSecret: true,
        expiresAt: true,
        lastSeenAt: true,
        user: { select: { id: true, email: true, isPlatformAdmin: true } },
      },
    });
    if (!row || row.expiresAt <= new Date()) return null;
    if (Date.now() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      await this.prisma.dashboardSession.update({ where: { id: row.id }, data: { lastSeenAt: new Date() } });
    }
    const { lastSeenAt: _seen, ...session } = row;
    return session;
  }

  async remove(id: string): Promise<void> {
    await this.prisma.dashboardSession.deleteMany({ where: { id } });
  }

  /** Signs the user out everywhere except (optionally) one session: after a password change. */
  async removeAllOf(userId: string, except?: string): Promise<number> {
    return (
      await this.prisma.dashboardSession.deleteMany({ where: { userId, ...(except ? { id: { not: except } } : {}) } })
    ).count;
  }

  /** Retention sweep: deletes sessions that expired before `cutoff`. */
  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    return (await this.prisma.dashboardSession.deleteMany({ where: { expiresAt: { lt: cutoff } } })).count;
  }
}
