import { loginPageOf, type LoginSecret } from "@authsvc/contracts";
import { rowAad, type Envelope } from "@authsvc/crypto";
import { isUniqueViolation, type Prisma } from "../prisma-client";
import type { Credentials } from "./credentials";

/** What a signup settled on the site: the identifier it signs in with, where, and the secret. */
export interface SettledSignup {
  username: string;
  loginUrl: string;
  secret: LoginSecret;
}

/** The credential of an account a signup made: its settled identity and secret, and whether it is unfinished. */
export class SignupCredentials {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
    private readonly credentials: Credentials,
    /** Bound to a caller's transaction (Database.transaction): its writes join that one. */
    private readonly bound = false,
  ) {}

  /**
   * Gives a signup's credential the identity the site settled on (the username variant it took, the
   * login page found) and the account's secret, and returns the credential's id. When the org already
   * has a credential with that identity (a login tried before the account existed), that one is kept: the
   * signup's job and session move to it and the signup's own row goes.
   *
   * `unfinished`: the signup failed after its form was sent (`failure` is its code), so the account may
   * exist but never signed in. Its secret is kept so the account is not lost, the credential is marked with
   * the failure, and a credential of that identity that already works is never touched.
   */
  async settleSignup(orgId: string, id: string, settled: SettledSignup, unfinished?: { failure: string }) {
    // The secret goes on the signup's own row first: whatever happens next, the new account's password is kept.
    if (unfinished) await this.recordPending(orgId, id, settled.secret, unfinished.failure);
    else await this.credentials.recordSuccess(orgId, id, settled.secret, settled.loginUrl);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.mergeSignup(orgId, id, settled, unfinished);
      } catch (err) {
        // A login created a row with the settled identity between our read and write: merge into it. Inside
        // a caller's transaction the violation aborted it: the caller tries the whole again.
        if (!isUniqueViolation(err) || attempt > 0 || this.bound) throw err;
      }
    }
  }

  /** Runs `work` in a transaction of its own, or in the one this repository is bound to (Database.transaction). */
  private inTransaction<T>(work: (tx: Prisma) => Promise<T>): Promise<T> {
    return this.bound ? work(this.prisma) : this.prisma.$transaction((tx) => work(tx as unknown as Prisma));
  }

  private async recordPending(orgId: string, id: string, secret: LoginSecret, failure: string) {
    await this.prisma.credential.updateMany({
      where: { id, orgId, lastLoginAt: null },
      data: { secret: this.envelope.encryptJson(secret, rowAad(orgId, id)), lastErrorCode: failure },
    });
  }

  private mergeSignup(orgId: string, id: string, settled: SettledSignup, unfinished?: { failure: string }) {
    return this.inTransaction(async (tx) => {
      const row = await tx.credential.findFirstOrThrow({ where: { id, orgId } });
      const loginPage = loginPageOf(settled.loginUrl);
      const collection = row.collectionId
        ? await tx.collection.findUnique({ where: { id: row.collectionId }, select: { externalId: true } })
        : null;
      const other = await tx.credential.findFirst({
        where: { orgId, collectionId: row.collectionId, loginPage, username: settled.username, id: { not: id } },
      });
      // An unfinished signup never replaces the secret of a credential that signs in.
      if (unfinished && (row.lastLoginAt || other?.lastLoginAt))
        return { id, loginPage: row.loginPage, collectionExternalId: collection?.externalId };
      const keep = other?.id ?? id;
      if (other) {
        await tx.authJob.updateMany({ where: { orgId, credentialId: id }, data: { credentialId: keep } });
        await tx.session.updateMany({ where: { orgId, credentialId: id }, data: { credentialId: keep } });
        await tx.credential.delete({ where: { id } });
      }
      await tx.credential.update({
        where: { id: keep },
        data: {
          username: settled.username,
          loginPage,
          loginUrl: settled.loginUrl,
          secret: this.envelope.encryptJson(settled.secret, rowAad(orgId, keep)),
          ...(unfinished ? { lastErrorCode: unfinished.failure } : { lastLoginAt: new Date(), lastErrorCode: null }),
        },
      });
      return { id: keep, loginPage, collectionExternalId: collection?.externalId };
    });
  }

  /** Whether the credential keeps the secret of an account that never signed in (an unfinished signup's). */
  async keepsUnfinishedAccount(orgId: string, id: string): Promise<boolean> {
    return (await this.prisma.credential.count({ where: { id, orgId, lastLoginAt: null, secret: { not: null } } })) > 0;
  }
}
