import { createHash, randomBytes } from "node:crypto";
import { newId } from "@authsvc/crypto";
import type { Prisma } from "../prisma-client";
import type { MembershipRole } from "./dashboard-users";

const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

export type AcceptOutcome = { joined: { orgId: string } } | { refused: "unknown" | "expired" | "used" };

/** Links to join an organization: the token is shown once to the owner; only its hash is kept. */
export class Invitations {
  constructor(private readonly prisma: Prisma) {}

  async create(
    orgId: string,
    createdBy: string,
    role: MembershipRole,
    ttlMs: number,
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(Date.now() + ttlMs);
    await this.prisma.invitation.create({
      data: { id: newId("inv"), orgId, tokenHash: hashToken(token), role, createdBy, expiresAt },
    });
    return { token, expiresAt };
  }

  /** The organization an invitation token leads to, while it can still be used. */
  async preview(token: string) {
    const row = await this.prisma.invitation.findUnique({
      where: { tokenHash: hashToken(token) },
      select: { usedAt: true, expiresAt: true, org: { select: { id: true, name: true } } },
    });
    return row && !row.usedAt && row.expiresAt > new Date() ? row.org : null;
  }

  /** Uses an invitation once: the user joins with its role (a member already keeps their role). */
  async accept(token: string, userId: string): Promise<AcceptOutcome> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.invitation.findUnique({ where: { tokenHash: hashToken(token) } });
      if (!row) return { refused: "unknown" } as const;
      if (row.usedAt) return { refused: "used" } as const;
      if (row.expiresAt <= new Date()) return { refused: "expired" } as const;
      // Claimed with a condition, so two browsers racing on one link cannot both use it.
      const claimed = await tx.invitation.updateMany({
        where: { id: row.id, usedAt: null },
        data: { usedAt: new Date(), usedBy: userId },
      });
      if (claimed.count === 0) return { refused: "used" } as const;
      await tx.membership.upsert({
        where: { userId_orgId: { userId, orgId: row.orgId } },
        create: { id: newId("mem"), userId, orgId: row.orgId, role: row.role },
        update: {},
      });
      return { joined: { orgId: row.orgId } };
    });
  }

  pending(orgId: string) {
    return this.prisma.invitation.findMany({
      where: { orgId, usedAt: null, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: "desc" },
      select: { id: true, role: true, createdAt: true, expiresAt: true },
    });
  }
}
