import { newId, rowAad, type Envelope } from "@authsvc/crypto";
import { isUniqueViolation, type Prisma } from "../prisma-client";

/** What a login needs besides the username; always encrypted at rest. */
export interface SecretBundle {
  password?: string;
  totpSecret?: string;
  additionalFields?: Record<string, string | number | boolean>;
  /** Our inbox where the site sends its code or link: a mailbox (email) or a phone number (SMS). */
  inbox?:
    | {
        kind: "email";
        mailboxId: string;
        /** The address the site knows, with its +tag if it has one; only mail sent to it is read. */
        address: string;
      }
    | { kind: "sms"; phoneNumberId: string; number: string };
}

export interface CredentialIdentity {
  orgId: string;
  collectionExternalId?: string;
  siteOrigin: string;
  loginUrl: string;
  username: string;
}

export class Credentials {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  /** The credential for org + collection + site + username, created (with its collection) on first use. */
  async ensure(identity: CredentialIdentity) {
    const collectionId = identity.collectionExternalId
      ? await this.ensureCollection(identity.orgId, identity.collectionExternalId)
      : null;
    const where = { orgId: identity.orgId, collectionId, siteOrigin: identity.siteOrigin, username: identity.username };
    for (let attempt = 0; ; attempt++) {
      const found = await this.prisma.credential.findFirst({ where });
      if (found) return found;
      try {
        return await this.prisma.credential.create({
          data: { id: newId("cred"), ...where, loginUrl: identity.loginUrl },
        });
      } catch (err) {
        // A concurrent first login created it between our read and write: read it back.
        if (!isUniqueViolation(err) || attempt > 0) throw err;
      }
    }
  }

  private async ensureCollection(orgId: string, externalId: string): Promise<string> {
    const row = await this.prisma.collection.upsert({
      where: { orgId_externalId: { orgId, externalId } },
      create: { id: newId("col"), orgId, externalId },
      update: {},
    });
    return row.id;
  }

  find(orgId: string, id: string) {
    return this.prisma.credential.findFirst({ where: { id, orgId } });
  }

  /** Stores the secret that just logged in successfully, so refreshes use a known-good one. */
  async recordSuccess(orgId: string, id: string, secret: SecretBundle, loginUrl: string) {
    await this.prisma.credential.updateMany({
      where: { id, orgId },
      data: {
        secret: this.envelope.encryptJson(secret, rowAad(orgId, id)),
        loginUrl,
        lastLoginAt: new Date(),
        lastErrorCode: null,
      },
    });
  }

  async recordFailure(orgId: string, id: string, errorCode: string) {
    await this.prisma.credential.updateMany({ where: { id, orgId }, data: { lastErrorCode: errorCode } });
  }
}
