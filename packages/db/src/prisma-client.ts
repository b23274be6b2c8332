import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma as PrismaNamespace, PrismaClient } from "./generated/prisma/client";

/** The database's NULL for a JSON column (a bare null means JSON's null there). */
export const DbNull = PrismaNamespace.DbNull;

/** Raw SQL built from parts: values are always parameters; `raw` only for text written in our own source. */
export const sql = PrismaNamespace.sql;
export const rawSql = PrismaNamespace.raw;
export const emptySql = PrismaNamespace.empty;
export const joinSql = PrismaNamespace.join;
export type Sql = PrismaNamespace.Sql;

// Secret columns are left out of every query unless a repository asks for them by name.
const omitSecrets = {
  apiKey: { secretHash: true },
  credential: { secret: true, device: true },
  proxy: { url: true },
  session: { state: true },
  authJob: { input: true, inputAnswer: true },
  jobScreenshot: { image: true },
} as const;

export function createPrismaClient(databaseUrl: string, poolSize = 5) {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl, max: poolSize }),
    omit: omitSecrets,
  });
}

export type Prisma = ReturnType<typeof createPrismaClient>;

/** Postgres unique violation, as Prisma reports it. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: string }).code === "P2002";
}
