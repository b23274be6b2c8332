import { newId } from "@authsvc/crypto";
import { isUniqueViolation, type Prisma } from "../prisma-client";

export type MembershipRole = "owner" | "member";

/** The address as stored and looked up: trimmed, lower case. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export class EmailTakenError extends Error {
  constructor() {
    super("an account with this email already exists");
    this.name = "EmailTakenError";
  }
}

/** Dashboard accounts and their memberships. The password hash is made and checked by the dashboard. */
export class DashboardUsers {
  constructor(private readonly prisma: Prisma) {}

  async create(email: string, passwordHash: string) {
    try {
      return await this.prisma.dashboardUser.create({
        data: { id: newId("usr"), email: normalizeEmail(email), passwordHash },
        select: { id: true, email: true, isPlatformAdmin: true },
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new EmailTakenError();
      throw err;
    }
  }

  /** The account with its password hash, for signing in; null when there is none. */
  findForSignIn(email: string) {
    return this.prisma.dashboardUser.findUnique({ where: { email: normalizeEmail(email) } });
  }

  passwordHashOf(id: string) {
    return this.prisma.dashboardUser
      .findUnique({ where: { id }, select: { passwordHash: true } })
      .then((r) => r?.passwordHash ?? null);
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.prisma.dashboardUser.update({ where: { id }, data: { passwordHash } });
  }

  /** Grants or revokes platform staff rights; false when no account has that email. */
  async setPlatformAdmin(email: string, isPlatformAdmin: boolean): Promise<boolean> {
    return (
      (
        await this.prisma.dashboardUser.updateMany({
          where: { email: normalizeEmail(email) },
          data: { isPlatformAdmin },
        })
      ).count > 0
    );
  }

  /** The user's organizations with their role, oldest membership first. */
  organizationsOf(userId: string) {
    return this.prisma.membership.findMany({
      where: { userId },
      orderBy: { createdAt: "asc" },
      select: { role: true, org: { select: { id: true, name: true } } },
    });
  }

  /** The user's role in the organization, or null when the user is not a member: the check every org page makes. */
  async roleIn(userId: string, orgId: string): Promise<MembershipRole | null> {
    const row = await this.prisma.membership.findUnique({
      where: { userId_orgId: { userId, orgId } },
      select: { role: true },
    });
    return (row?.role as MembershipRole | undefined) ?? null;
  }

  /** A new organization with its creator as owner, in one transaction. */
  async createOrganization(userId: string, name: string) {
    const id = newId("org");
    const [org] = await this.prisma.$transaction([
      this.prisma.organization.create({ data: { id, name }, select: { id: true, name: true } }),
      this.prisma.membership.create({ data: { id: newId("mem"), userId, orgId: id, role: "owner" } }),
    ]);
    return org;
  }

  members(orgId: string) {
    return this.prisma.membership.findMany({
      where: { orgId },
      orderBy: { createdAt: "asc" },
      select: { role: true, createdAt: true, user: { select: { id: true, email: true } } },
    });
  }
}
