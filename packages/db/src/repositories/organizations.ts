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
}
