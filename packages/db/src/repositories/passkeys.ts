import type { PasskeyKey } from "@authsvc/contracts";
import { newId, rowAad, type Envelope } from "@authsvc/crypto";
import type { Prisma } from "../prisma-client";

export type { PasskeyKey };

/** What listings show of a passkey: never its key material. */
export interface ListedPasskey {
  id: string;
  rpId: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const LISTED = { id: true, rpId: true, createdAt: true, lastUsedAt: true } as const;

/**
 * The passkeys credentials hold for their sites (issue 29). Each is sealed under its own associated data
 * (org, credential, passkey): one row's sealed key never opens as another's. Every read is scoped to the org.
 */
export class Passkeys {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  /** Keeps a passkey for a credential of the org; null when the org has no such credential. */
  async add(orgId: string, credentialId: string, key: PasskeyKey, jobId?: string): Promise<ListedPasskey | null> {
    if ((await this.prisma.credential.count({ where: { id: credentialId, orgId } })) === 0) return null;
    const id = newId("pk");
    return this.prisma.credentialPasskey.create({
      data: {
        id,
        orgId,
        credentialId,
        jobId,
        rpId: key.rpId,
        sealed: this.envelope.encryptJson(key, passkeyAad(orgId, credentialId, id)),
      },
      select: LISTED,
    });
  }

  /**
   * Keeps a passkey the caller brought (POST /v1/credentials/{id}/passkeys `import`), sealed as an enrolled one
   * is. A credential holds a passkey once: the same WebAuthn credential id again, or another passkey of the
   * same account of the same relying party (its user handle; an authenticator holds one per account, and the
   * sign-in loads them all into one), is `{ held }`, the passkey held (its counter kept, not reset by a second
   * export). Null when the org has no such credential.
   * Concurrent imports to one credential queue on its row (run it in `Database.transaction`).
   */
  async import(
    orgId: string,
    credentialId: string,
    key: PasskeyKey,
  ): Promise<{ added: ListedPasskey } | { held: ListedPasskey } | null> {
    const locked = await this.prisma.$queryRaw<
      Array<{ id: string }>
    >`SELECT id FROM credentials WHERE id = ${credentialId} AND org_id = ${orgId} FOR UPDATE`;
    if (locked.length === 0) return null;
    const same = (await this.keys(orgId, credentialId)).find(
      (held) =>
        held.key.credentialId === key.credentialId ||
        (held.key.rpId === key.rpId && held.key.userHandle !== undefined && held.key.userHandle === key.userHandle),
    );
    if (same)
      return {
        held: await this.prisma.credentialPasskey.findFirstOrThrow({ where: { id: same.id, orgId }, select: LISTED }),
      };
    const added = await this.add(orgId, credentialId, key);
    return added && { added };
  }

  /** The credential's passkeys as listings show them, oldest first. */
  list(orgId: string, credentialId: string): Promise<ListedPasskey[]> {
    return this.prisma.credentialPasskey.findMany({
      where: { orgId, credentialId },
      select: LISTED,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
  }

  /** The passkey a job of the org added (to the credential its account settled on), or null. */
  ofJob(orgId: string, jobId: string): Promise<ListedPasskey | null> {
    return this.prisma.credentialPasskey.findFirst({ where: { orgId, jobId }, select: LISTED });
  }

  /** The credential's passkeys with their key material, for the run that signs in with them. */
  async keys(orgId: string, credentialId: string): Promise<Array<{ id: string; key: PasskeyKey }>> {
    const rows = await this.prisma.credentialPasskey.findMany({
      where: { orgId, credentialId },
      select: { id: true, sealed: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    return rows.map((row) => ({
      id: row.id,
      key: this.envelope.decryptJson<PasskeyKey>(row.sealed, passkeyAad(orgId, credentialId, row.id)),
    }));
  }

  /** After a sign-in: the counter the authenticator reached (a site refuses a counter that went backwards). */
  async used(orgId: string, credentialId: string, id: string, key: PasskeyKey): Promise<void> {
    await this.prisma.credentialPasskey.updateMany({
      where: { id, orgId, credentialId },
      data: { sealed: this.envelope.encryptJson(key, passkeyAad(orgId, credentialId, id)), lastUsedAt: new Date() },
    });
  }

  /** Forgets one (the site still lists it); false when the credential holds no such passkey. */
  async remove(orgId: string, credentialId: string, id: string): Promise<boolean> {
    return (await this.prisma.credentialPasskey.deleteMany({ where: { id, orgId, credentialId } })).count > 0;
  }
}

const passkeyAad = (orgId: string, credentialId: string, id: string) => `${rowAad(orgId, credentialId)}/passkey/${id}`;
