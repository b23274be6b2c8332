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

/** What a job list is narrowed to; every field optional. Lists are newest first, by creation then id. */
export interface JobSearch {
  status?: "queued" | "running" | "succeeded" | "failed";
  errorCode?: string;
  /** A part of the login URL (its host, say), case-insensitive. */
  site?: string;
  /** Platform staff: only these organizations (an empty list matches nothing). */
  orgIds?: string[];
  since?: Date;
  until?: Date;
  /** The keyset of the last job of the previous page: this page starts after it. */
  after?: JobCursor;
  limit: number;
}

/** Where a page of a job list ends: the last job's creation time and id (ids are random, times can tie). */
export interface JobCursor {
  createdAt: Date;
  id: string;
}

function searchWhere(search: JobSearch) {
  return {
    ...(search.status ? { status: search.status } : {}),
    ...(search.errorCode ? { errorCode: search.errorCode } : {}),
    ...(search.site ? { loginUrl: { contains: search.site, mode: "insensitive" as const } } : {}),
    ...(search.orgIds ? { orgId: { in: search.orgIds } } : {}),
    ...(search.since || search.until
      ? {
          createdAt: { ...(search.since ? { gte: search.since } : {}), ...(search.until ? { lte: search.until } : {}) },
        }
      : {}),
    ...(search.after
      ? {
          OR: [
            { createdAt: { lt: search.after.createdAt } },
            { createdAt: search.after.createdAt, id: { lt: search.after.id } },
          ],
        }
      : {}),
  };
}

const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/**
 * Read-only lists of auth job records for the dashboard: one org's jobs, or (platform staff) failed jobs of
 * every org. Paged by a keyset (creation time, id) on the (org, created) and (status, created) indexes: a
 * page costs the rows it skips over for its filters, never an offset into everything before it.
 */
export class JobListings {
  constructor(private readonly prisma: Prisma) {}

  forOrg(orgId: string, search: JobSearch) {
    return this.prisma.authJob.findMany({
      where: { ...searchWhere(search), orgId },
      orderBy: NEWEST_FIRST,
      take: search.limit,
      select: LISTED,
    });
  }

  findInOrg(orgId: string, id: string) {
    return this.prisma.authJob.findFirst({ where: { id, orgId }, select: LISTED });
  }

  /** Across tenants, for platform staff only: failed jobs, newest first, with their organization's name. */
  failed(search: Omit<JobSearch, "status">) {
    return this.prisma.authJob.findMany({
      where: { ...searchWhere(search), status: "failed" },
      orderBy: NEWEST_FIRST,
      take: search.limit,
      select: { ...LISTED, org: { select: { name: true } } },
    });
  }

  /** One job of any organization, for platform staff; null when there is none. */
  findAny(id: string) {
    return this.prisma.authJob.findUnique({ where: { id }, select: { ...LISTED, org: { select: { name: true } } } });
  }
}
