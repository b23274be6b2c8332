import { newId } from "@authsvc/crypto";
import type { Prisma } from "../prisma-client";

export class Organizations {
  constructor(private readonly prisma: Prisma) {}

  create(name: string) {
    return this.prisma.organization.create({ data: { id: newId("org"), name } });
  }

  find(id: string) {
    return this.prisma.organization.findUnique({ where: { id } });
  }

  list() {
    return this.prisma.organization.findMany({ orderBy: { createdAt: "asc" } });
  }

  /** Platform staff's search: the organization with this id, or up to `limit` whose name contains the text (any case). */
  async matching(text: string, limit: number): Promise<string[]> {
    const rows = await this.prisma.organization.findMany({
      where: { OR: [{ id: text }, { name: { contains: text, mode: "insensitive" } }] },
      orderBy: { createdAt: "asc" },
      take: limit,
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }
}
