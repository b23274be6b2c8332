import { rowAad, type Envelope } from "@authsvc/crypto";
import type { Prisma } from "../prisma-client";

export interface JobScreenshotImage {
  image: Buffer;
  /** `image/jpeg` or `image/png`. */
  contentType: string;
}

/**
 * The last page of a failed job, already redacted by the worker. Encrypted like every other secret column
 * (a page may still show personal data), bound to org + job id; one per job, the latest capture wins.
 */
export class JobScreenshots {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  async save(orgId: string, jobId: string, shot: JobScreenshotImage): Promise<void> {
    const image = this.envelope.encrypt(shot.image, rowAad(orgId, jobId));
    await this.prisma.jobScreenshot.upsert({
      where: { jobId },
      create: { jobId, orgId, image, contentType: shot.contentType },
      update: { image, contentType: shot.contentType, createdAt: new Date() },
    });
  }

  /** The decrypted screenshot of one of the org's jobs, or null when it has none. */
  async find(orgId: string, jobId: string): Promise<(JobScreenshotImage & { createdAt: Date }) | null> {
    const row = await this.prisma.jobScreenshot.findFirst({ where: { jobId, orgId }, omit: { image: false } });
    if (!row) return null;
    return {
      image: this.envelope.decrypt(row.image, rowAad(orgId, jobId)),
      contentType: row.contentType,
      createdAt: row.createdAt,
    };
  }
}
