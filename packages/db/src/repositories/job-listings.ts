import type { Prisma } from "../prisma-client";

/** What a job list shows: never the input, the fingerprint or anything else secret-adjacent. */
const LISTED = {
  id: true,
  orgId: true,
  kind: true,
  method: true,
  loginUrl: true,
  status: true,
  errorCode: true,
  errorMessage: true,
  durationMs: true,
  attempts: true,
  createdAt: true,
  finishedAt: true,
  submittedAt: true,
} as const;

export interface FailedJobFilter {
  errorCode?: string;
  /** A part of the login URL (its host, say), case-insensitive. */
  site?: string;
  since?: Date;
  until?: Date;
  limit: number;
}

/** Read-only lists of auth job records for the dashboard: one org's jobs, or (platform staff) failed jobs of every org. */
export class JobListings {
  constructor(private readonly prisma: Prisma) {}

  forOrg(orgId: string, options: { limit: number; status?: "failed" | "succeeded" | "queued" | "running" }) {
    return this.prisma.authJob.findMany({
      where: { orgId, ...(options.status ? { status: options.status } : {}) },
      orderBy: { createdAt: "desc" },
      take: options.limit,
      select: LISTED,
    });
  }

  findInOrg(orgId: string, id: string) {
    return this.prisma.authJob.findFirst({ where: { id, orgId }, select: LISTED });
  }

  /** Across tenants, for platform staff only: failed jobs, newest first, with their organization's name. */
  failed(filter: FailedJobFilter) {
    return this.prisma.authJob.findMany({
      where: {
        status: "failed",
        ...(filter.errorCode ? { errorCode: filter.errorCode } : {}),
        ...(filter.site ? { loginUrl: { contains: filter.site, mode: "insensitive" as const } } : {}),
        ...(filter.since || filter.until ? { createdAt: { ...(filter.since ? { gte: filter.since } : {}), ...(filter.until ? { lte: filter.until } : {}) } } : {}),
      },
      orderBy: { createdAt: "desc" },
      take: filter.limit,
      select: { ...LISTED, org: { select: { name: true } } },
    });
  }

  /** One job of any organization, for platform staff; null when there is none. */
  findAny(id: string) {
    return this.prisma.authJob.findUnique({ where: { id }, select: { ...LISTED, org: { select: { name: true } } } });
  }

  /** The error codes failed jobs carry, for the admin filter. */
  async failedCodes(): Promise<string[]> {
    const rows = await this.prisma.authJob.findMany({ where: { status: "failed", errorCode: { not: null } }, distinct: ["errorCode"], select: { errorCode: true } });
    return rows.map((r) => r.errorCode!).sort();
  }
}
