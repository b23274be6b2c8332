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

  /** The decrypted state of one of the org's sessions, or null when there is none. */
  async findState(orgId: string, id: string): Promise<{ state: SessionResponse; expiresAt: Date } | null> {
    const row = await this.prisma.session.findFirst({ where: { id, orgId }, omit: { state: false } });
    if (!row) return null;
    return { state: this.envelope.decryptJson<SessionResponse>(row.state, rowAad(orgId, id)), expiresAt: row.expiresAt };
  }
}
