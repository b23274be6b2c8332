import { newId, rowAad, type Envelope } from "@authsvc/crypto";
import type { Prisma } from "../prisma-client";

const PUBLIC = { id: true, url: true, events: true, createdAt: true } as const;

/** Organizations' webhook endpoints; the signing secret is stored encrypted and returned only to sign. */
export class Webhooks {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  async create(orgId: string, url: string, events: string[], secret: string) {
    const id = newId("whk");
    return this.prisma.webhook.create({
      data: { id, orgId, url, events, secret: this.envelope.encrypt(secret, rowAad(orgId, id)) },
      select: PUBLIC,
    });
  }

  list(orgId: string) {
    return this.prisma.webhook.findMany({ where: { orgId }, orderBy: { createdAt: "asc" }, select: PUBLIC });
  }

  async remove(orgId: string, id: string): Promise<boolean> {
    return (await this.prisma.webhook.deleteMany({ where: { id, orgId } })).count > 0;
  }

  /** The org's webhooks that asked for an event type. */
  subscribedTo(orgId: string, event: string) {
    return this.prisma.webhook.findMany({ where: { orgId, events: { has: event } }, select: { id: true } });
  }

  /** One webhook with its signing secret, for the delivery worker; null when it was deleted meanwhile. */
  async forDelivery(orgId: string, id: string): Promise<{ url: string; secret: string } | null> {
    const row = await this.prisma.webhook.findFirst({ where: { id, orgId }, select: { url: true, secret: true } });
    return row ? { url: row.url, secret: this.envelope.decrypt(row.secret, rowAad(orgId, id)).toString("utf8") } : null;
  }
}
