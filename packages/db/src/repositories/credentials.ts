import { loginPageOf, readLoginSecret, type LoginSecret } from "@authsvc/contracts";
import { newId, rowAad, type Envelope } from "@authsvc/crypto";
import { isUniqueViolation, type Prisma } from "../prisma-client";

const METADATA = {
  id: true,
  siteOrigin: true,
  loginPage: true,
  loginUrl: true,
  username: true,
  createdAt: true,
  lastLoginAt: true,
  lastErrorCode: true,
  deviceSavedAt: true,
  region: true,
  collection: { select: { externalId: true } },
} as const;
export interface CredentialIdentity {
  orgId: string;
  collectionExternalId?: string;
  /** Where the credential is used; its identity is the login page of `loginUrl` (`loginPageOf`). */
  loginUrl: string;
  username: string;
}

/**
 * The row a signup's job was recorded under, when the site refused the signup: no account exists, so it
 * is no credential (not listed, not found); it stays for its job's record (GET /v1/jobs/{id}, a replay).
 */
const ACCOUNTS_ONLY = { NOT: { secret: null, lastLoginAt: null, lastErrorCode: "signup_rejected" } } as const;

export class Credentials {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  /**
   * The credential for org + collection + login page + username, created (with its collection) on first
   * use. `anyPageOfSite`: a signup, whose page is not a login page, joins the account's credential on any
   * login page of the site (the newest that worked), so a refused signup never shadows a working one.
   */
  async ensure(identity: CredentialIdentity, options: { anyPageOfSite?: boolean } = {}) {
    const collectionId = identity.collectionExternalId
      ? await this.ensureCollection(identity.orgId, identity.collectionExternalId)
      : null;
    const where = {
      orgId: identity.orgId,
      collectionId,
      loginPage: loginPageOf(identity.loginUrl),
      username: identity.username,
    };
    for (let attempt = 0; ; attempt++) {
      const found = options.anyPageOfSite
        ? await this.prisma.credential.findFirst({
            where: {
              orgId: where.orgId,
              collectionId,
              siteOrigin: new URL(identity.loginUrl).origin,
              username: identity.username,
            },
            orderBy: [{ lastLoginAt: { sort: "desc", nulls: "last" } }, { id: "asc" }],
          })
        : await this.prisma.credential.findFirst({ where });
      if (found) return found;
      try {
        return await this.prisma.credential.create({
          data: {
            id: newId("cred"),
            ...where,
            siteOrigin: new URL(identity.loginUrl).origin,
            loginUrl: identity.loginUrl,
          },
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

  /**
   * Stores the secret that just logged in successfully, so refreshes use a known-good one (null: the stored
   * one stays, as after a passkey sign-in, which used none), where it logged in, and when.
   */
  async recordSuccess(orgId: string, id: string, secret: LoginSecret | null, loginUrl: string) {
    await this.prisma.credential.updateMany({
      where: { id, orgId },
      data: {
        ...(secret ? { secret: this.envelope.encryptJson(secret, rowAad(orgId, id)) } : {}),
        loginUrl,
        lastLoginAt: new Date(),
        lastErrorCode: null,
      },
    });
  }

  /**
   * The org's credentials, newest first (by creation, then id: ids are random), with their collection's
   * external id; metadata only. `site` (an origin) and `username` narrow it; `before` pages on after that
   * credential. Null when `before` names no credential of the org (removed meanwhile: start again).
   */
  async list(orgId: string, options: { limit: number; before?: string; site?: string; username?: string }) {
    const where = {
      orgId,
      ...ACCOUNTS_ONLY,
      ...(options.site ? { siteOrigin: options.site } : {}),
      ...(options.username !== undefined ? { username: options.username } : {}),
    };
    const after = options.before
      ? await this.prisma.credential.findFirst({
          where: { id: options.before, orgId },
          select: { id: true, createdAt: true },
        })
      : null;
    if (options.before && !after) return null;
    return this.prisma.credential.findMany({
      where: after
        ? {
            ...where,
            OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
          }
        : where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: options.limit,
      select: METADATA,
    });
  }

  findMetadata(orgId: string, id: string) {
    return this.prisma.credential.findFirst({ where: { id, orgId, ...ACCOUNTS_ONLY }, select: METADATA });
  }

  /**
   * The credentials a caller names by site, username and collection (the API's other way to name one):
   * the one of that login page when the URL names one, else every one of that origin, so the caller can
   * be told when a bare origin names several.
   */
  async findByIdentity(orgId: string, identity: { url: string; username: string; collectionExternalId?: string }) {
    const collection = identity.collectionExternalId
      ? await this.prisma.collection.findUnique({
          where: { orgId_externalId: { orgId, externalId: identity.collectionExternalId } },
        })
      : null;
    if (identity.collectionExternalId && !collection) return [];
    const where = { orgId, username: identity.username, collectionId: collection?.id ?? null };
    const page = await this.prisma.credential.findMany({
      where: { ...where, loginPage: loginPageOf(identity.url) },
      select: METADATA,
    });
    if (page.length > 0) return page;
    return this.prisma.credential.findMany({
      where: { ...where, siteOrigin: new URL(identity.url).origin },
      select: METADATA,
      orderBy: { id: "asc" },
      take: 10,
    });
  }

  /** The worker region this credential's runs go to (null: any worker). */
  async region(orgId: string, id: string): Promise<string | null> {
    const row = await this.prisma.credential.findFirst({ where: { id, orgId }, select: { region: true } });
    return row?.region ?? null;
  }

  /** Moves the credential's runs to a region (a request named it): its later refreshes and keep-alive go there. */
  async moveRegion(orgId: string, id: string, region: string): Promise<void> {
    // Written only when it changes (a region-naming login would otherwise write on every run).
    await this.prisma.credential.updateMany({
      where: { id, orgId, OR: [{ region: null }, { region: { not: region } }] },
      data: { region },
    });
  }

  /** The secret of the last successful login, decrypted; null when none succeeded yet. */
  async secret(orgId: string, id: string): Promise<LoginSecret | null> {
    const row = await this.prisma.credential.findFirst({ where: { id, orgId }, select: { secret: true } });
    return row?.secret ? readLoginSecret(this.envelope.decryptJson<LoginSecret>(row.secret, rowAad(orgId, id))) : null;
  }

  /**
   * Deletes a credential with its sessions and job records. Returns the cache keys its logins used (so the
   * caller can drop the cached sessions), or null when the org has no such credential.
   */
  async remove(orgId: string, id: string): Promise<string[] | null> {
    const jobs = await this.prisma.authJob.findMany({
      where: { orgId, credentialId: id },
      select: { fingerprint: true },
      distinct: ["fingerprint"],
    });
    const { count } = await this.prisma.credential.deleteMany({ where: { id, orgId } });
    return count > 0 ? jobs.map((j) => j.fingerprint) : null;
  }

  async recordFailure(orgId: string, id: string, errorCode: string) {
    await this.prisma.credential.updateMany({ where: { id, orgId }, data: { lastErrorCode: errorCode } });
  }
}
