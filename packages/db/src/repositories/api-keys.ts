import { apiKeyLookupPrefix, apiKeyMatches, mintApiKey, newId } from "@authsvc/crypto";
import type { Prisma } from "../prisma-client";

export interface AuthenticatedKey {
  apiKeyId: string;
  orgId: string;
}

export class ApiKeys {
  constructor(private readonly prisma: Prisma) {}

  /** Creates a key and returns it whole; this is the only time the key exists outside its owner's hands. */
  async create(orgId: string, name: string) {
    const minted = mintApiKey();
    const row = await this.prisma.apiKey.create({
      data: { id: newId("key"), orgId, name, prefix: minted.prefix, secretHash: minted.hash },
    });
    return { key: minted.key, apiKey: row };
  }

  /**
   * The key's organization when the key is well-formed, known, matches and is not revoked; otherwise null.
   * Writes nothing: callers record use with `markUsed`, batched (lastUsedAt is bookkeeping, not security).
   */
  async authenticate(key: string): Promise<AuthenticatedKey | null> {
    const prefix = apiKeyLookupPrefix(key);
    if (!prefix) return null;
    const row = await this.prisma.apiKey.findUnique({ where: { prefix }, omit: { secretHash: false } });
    if (!row || !apiKeyMatches(key, row.secretHash) || row.revokedAt) return null;
    return { apiKeyId: row.id, orgId: row.orgId };
  }

  /** Sets lastUsedAt of these keys to `at`, in one statement. */
  async markUsed(ids: string[], at = new Date()): Promise<void> {
    if (ids.length) await this.prisma.apiKey.updateMany({ where: { id: { in: ids } }, data: { lastUsedAt: at } });
  }

  /**
   * Revokes by id or public prefix; returns the revoked row, or null if no such key. `announce` runs after
   * the update: gateways keep verified keys in memory and drop them when told (announceKeyRevocation in
   * @authsvc/queue), so no revoke can forget to tell them.
   */
  async revoke(idOrPrefix: string, announce: (orgId: string) => Promise<void>) {
    const row = await this.prisma.apiKey.findFirst({ where: { OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }] } });
    return row ? this.revokeRow(row, announce) : null;
  }

  /** Revokes one of the org's keys by id (the dashboard's way): another org's key is never touched. */
  async revokeInOrg(orgId: string, id: string, announce: (orgId: string) => Promise<void>) {
    const row = await this.prisma.apiKey.findFirst({ where: { id, orgId } });
    return row ? this.revokeRow(row, announce) : null;
  }

  private async revokeRow(
    row: { id: string; orgId: string; revokedAt: Date | null },
    announce: (orgId: string) => Promise<void>,
  ) {
    const revoked = await this.prisma.apiKey.update({
      where: { id: row.id },
      data: { revokedAt: row.revokedAt ?? new Date() },
    });
    await announce(row.orgId);
    return revoked;
  }

  list(orgId: string) {
    return this.prisma.apiKey.findMany({ where: { orgId }, orderBy: { createdAt: "asc" } });
  }
}
