import { newId } from "@authsvc/crypto";
import type { Prisma } from "../prisma-client";

export interface NewEntryLink {
  orgId: string;
  collectionExternalId?: string;
  loginUrl: string;
  siteOrigin: string;
  method: string;
  expiresAt: Date;
}

const WITH_JOB = {
  id: true,
  orgId: true,
  collectionExternalId: true,
  loginUrl: true,
  siteOrigin: true,
  method: true,
  expiresAt: true,
  createdAt: true,
  tries: true,
  jobId: true,
  credentialId: true,
  createdCredentialAt: true,
} as const;

/**
 * Links to the hosted page where an end user types their own credentials (POST /v1/credentials/entry-links).
 * A link holds no secret: what the person types goes into the sign-in job's encrypted input, and from there
 * into the credential the job stores.
 */
export class EntryLinks {
  constructor(private readonly prisma: Prisma) {}

  create(link: NewEntryLink) {
    return this.prisma.credentialEntryLink.create({ data: { id: newId("elink"), ...link }, select: WITH_JOB });
  }

  /** One of the org's links; null for another org's id. */
  find(orgId: string, id: string) {
    return this.prisma.credentialEntryLink.findFirst({ where: { id, orgId }, select: WITH_JOB });
  }

  /** A link as its hosted page (which has no org of its own) reads it, with the org's name. */
  forPage(id: string) {
    return this.prisma.credentialEntryLink.findUnique({
      where: { id },
      select: { ...WITH_JOB, org: { select: { name: true } } },
    });
  }

  /**
   * Takes one of the link's tries for a sign-in: only while the link is open (not expired, no credential
   * yet, fewer than `maxTries` taken, no sign-in of it running — `runningJob` says whether its latest one
   * still runs). Returns the try's number, or null when none may start.
   */
  async takeTry(id: string, maxTries: number, latestJob: string | null): Promise<number | null> {
    const taken = await this.prisma.credentialEntryLink.updateMany({
      where: {
        id,
        createdCredentialAt: null,
        expiresAt: { gt: new Date() },
        tries: { lt: maxTries },
        jobId: latestJob,
      },
      data: { tries: { increment: 1 }, jobId: null },
    });
    if (taken.count === 0) return null;
    return (
      (await this.prisma.credentialEntryLink.findUnique({ where: { id }, select: { tries: true } }))?.tries ?? null
    );
  }

  /** The sign-in a try started. */
  async attachJob(id: string, jobId: string): Promise<void> {
    await this.prisma.credentialEntryLink.update({ where: { id }, data: { jobId } });
  }

  /**
   * The link's sign-in signed in and stored `credentialId` (in the job's success transaction): the link is
   * spent. Returns the link when this job was its sign-in, once.
   */
  settle(jobId: string, credentialId: string) {
    return this.prisma.credentialEntryLink
      .updateMany({
        where: { jobId, createdCredentialAt: null },
        data: { credentialId, createdCredentialAt: new Date() },
      })
      .then((r) =>
        r.count > 0 ? this.prisma.credentialEntryLink.findUnique({ where: { jobId }, select: WITH_JOB }) : null,
      );
  }
}
