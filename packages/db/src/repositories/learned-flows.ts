import { newId } from "@authsvc/crypto";
import type { Prisma } from "../prisma-client";

/**
 * Learned login flows, one per organization and login page (origin + path). The flow is stored as the
 * engine wrote it (JSON without values); its shape is the engine's business, checked when it is read.
 */
export class LearnedFlows {
  constructor(private readonly prisma: Prisma) {}

  async find(orgId: string, loginPage: string): Promise<unknown> {
    const row = await this.prisma.learnedFlow.findUnique({
      where: { orgId_loginPage: { orgId, loginPage } },
      select: { flow: true },
    });
    return row?.flow ?? null;
  }

  /**
   * Records a login that worked. `changed` carries a flow to store (the first one for this page, or one
   * detection found after the stored flow no longer fit); without it only the counters move.
   */
  async recordSuccess(
    orgId: string,
    loginPage: string,
    outcome: { changed: object | null; relearned: boolean },
  ): Promise<void> {
    const now = new Date();
    const flow = outcome.changed as Parameters<Prisma["learnedFlow"]["create"]>[0]["data"]["flow"] | null;
    if (!flow) {
      await this.prisma.learnedFlow.updateMany({
        where: { orgId, loginPage },
        data: { successes: { increment: 1 }, lastUsedAt: now },
      });
      return;
    }
    await this.prisma.learnedFlow.upsert({
      where: { orgId_loginPage: { orgId, loginPage } },
      create: { id: newId("flw"), orgId, loginPage, flow, successes: 1, relearned: outcome.relearned ? 1 : 0 },
      update: {
        flow,
        successes: { increment: 1 },
        relearned: { increment: outcome.relearned ? 1 : 0 },
        updatedAt: now,
        lastUsedAt: now,
      },
    });
  }
}
