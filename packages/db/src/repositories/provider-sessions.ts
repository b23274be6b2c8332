import { newId, rowAad, type Envelope } from "@authsvc/crypto";
import type { Cookie } from "@authsvc/contracts";
import type { Prisma } from "../prisma-client";

/** Names one provider account's session: the org, the collection ("" for none), the provider and the account. */
export interface ProviderAccountKey {
  orgId: string;
  scope: string;
  provider: string;
  account: string;
}

const where = (key: ProviderAccountKey) => ({
  orgId_scope_provider_account: {
    orgId: key.orgId,
    scope: key.scope,
    provider: key.provider,
    account: key.account.toLowerCase(),
  },
});

/**
 * OAuth providers' signed-in state (their cookies), encrypted, one per provider account: what lets the
 * next OAuth login with the account, on any site, skip the provider's password.
 */
export class ProviderSessions {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  /** The account's provider cookies, unless they ended (or cannot be read: a rotated-out key); null then. */
  async find(key: ProviderAccountKey, now = new Date()): Promise<Cookie[] | null> {
    const row = await this.prisma.providerSession.findUnique({
      where: where(key),
      select: { id: true, state: true, expiresAt: true },
    });
    if (!row || row.expiresAt <= now) return null;
    try {
      return this.envelope.decryptJson<Cookie[]>(row.state, rowAad(key.orgId, row.id));
    } catch {
      return null;
    }
  }

  /** Keeps the account's provider cookies after a login, in place of what was kept. */
  async save(key: ProviderAccountKey, cookies: Cookie[], expiresAt: Date): Promise<void> {
    const existing = await this.prisma.providerSession.findUnique({ where: where(key), select: { id: true } });
    const id = existing?.id ?? newId("psn");
    const state = this.envelope.encryptJson(cookies, rowAad(key.orgId, id));
    if (existing) {
      await this.prisma.providerSession.update({ where: { id }, data: { state, expiresAt, updatedAt: new Date() } });
      return;
    }
    const { orgId, scope, provider, account } = where(key).orgId_scope_provider_account;
    await this.prisma.providerSession.create({ data: { id, orgId, scope, provider, account, state, expiresAt } });
  }

  /** Forgets the account's provider session (the provider signed it out, or refused it). */
  async forget(key: ProviderAccountKey): Promise<void> {
    await this.prisma.providerSession.deleteMany({ where: where(key).orgId_scope_provider_account });
  }

  /** Retention sweep, across all tenants. */
  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    return (await this.prisma.providerSession.deleteMany({ where: { expiresAt: { lt: cutoff } } })).count;
  }
}
