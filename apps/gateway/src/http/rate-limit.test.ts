import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { REDIS_URL, deleteRedisPrefix } from "@authsvc/devstack";
import { announceKeyRevocation, currentRevocationMark, orgKey } from "@authsvc/queue";
import { OrgRateLimit, type RateVerdict } from "./rate-limit";

// Real Redis; the clock is passed in so that a minute boundary is exact. Two connections stand for two replicas.
const prefix = `authsvc-ratelimit-test-${randomBytes(4).toString("hex")}`;
const replicaA = new Redis(REDIS_URL);
const replicaB = new Redis(REDIS_URL);
afterAll(async () => {
  await deleteRedisPrefix(REDIS_URL, prefix);
  replicaA.disconnect();
  replicaB.disconnect();
});

const MINUTE = 60_000;
const allowed = (verdicts: RateVerdict[]) => verdicts.filter((v) => v.kind === "allowed").length;

async function burst(limit: OrgRateLimit, orgId: string, n: number, now: number): Promise<RateVerdict[]> {
  const mark = await currentRevocationMark(replicaA, prefix, orgId);
  const verdicts: RateVerdict[] = [];
  for (let i = 0; i < n; i++) verdicts.push(await limit.take(orgId, mark, { nowMs: now }));
  return verdicts;
}

describe("OrgRateLimit (GCRA in Redis)", () => {
  it("lets no more than the limit through across a minute boundary, where a fixed window let twice as many", async () => {
    const limit = new OrgRateLimit(replicaA, prefix, 10);
    const boundary = 1_000 * MINUTE; // a whole minute: a fixed window would start afresh here
    const before = await burst(limit, "org_boundary", 10, boundary - 100);
    const after = await burst(limit, "org_boundary", 10, boundary + 100);
    expect(allowed(before)).toBe(10);
    expect(allowed(after)).toBe(0);
    expect(after[0]).toEqual({ kind: "limited", resetMs: MINUTE - 200, retryAfterMs: 6_000 - 200 });
  });

  it("refills at the limit per minute: one token every minute/limit, all of them after a minute", async () => {
    const limit = new OrgRateLimit(replicaA, prefix, 10);
    const t0 = 2_000 * MINUTE;
    expect(allowed(await burst(limit, "org_refill", 11, t0))).toBe(10);
    expect(allowed(await burst(limit, "org_refill", 2, t0 + 5_999))).toBe(0);
    expect(allowed(await burst(limit, "org_refill", 2, t0 + 6_000))).toBe(1);
    expect(allowed(await burst(limit, "org_refill", 11, t0 + 6_000 + MINUTE))).toBe(10);
  });

  it("counts remaining tokens and the seconds until full in its answer", async () => {
    const limit = new OrgRateLimit(replicaA, prefix, 7);
    const t0 = 3_000 * MINUTE;
    const verdicts = await burst(limit, "org_headers", 8, t0);
    expect(verdicts.map((v) => (v.kind === "allowed" ? v.remaining : -1))).toEqual([6, 5, 4, 3, 2, 1, 0, -1]);
    expect(verdicts[0]).toMatchObject({ resetMs: Math.ceil(MINUTE / 7) });
  });

  it("is one bucket per organization, shared by every replica", async () => {
    const a = new OrgRateLimit(replicaA, prefix, 4);
    const b = new OrgRateLimit(replicaB, prefix, 4);
    const t0 = 4_000 * MINUTE;
    const verdicts = [...(await burst(a, "org_shared", 2, t0)), ...(await burst(b, "org_shared", 3, t0))];
    expect(allowed(verdicts)).toBe(4);
    expect(allowed(await burst(b, "org_other", 4, t0))).toBe(4);
  });

  it("takes no token and answers the new mark when a key revocation of the org moved it; other orgs' marks stay", async () => {
    const limit = new OrgRateLimit(replicaA, prefix, 2);
    const t0 = 5_000 * MINUTE;
    const otherMark = await currentRevocationMark(replicaA, prefix, "org_other_mark");
    await announceKeyRevocation(replicaB, prefix, "org_mark");
    const mark = await currentRevocationMark(replicaA, prefix, "org_mark");
    expect(await limit.take("org_mark", "an older mark", { nowMs: t0 })).toEqual({ kind: "stale", mark });
    expect(await limit.take("org_mark", "an older mark", { nowMs: t0 })).toEqual({ kind: "stale", mark });
    expect(
      allowed([await limit.take("org_mark", mark, { nowMs: t0 }), await limit.take("org_mark", mark, { nowMs: t0 })]),
    ).toBe(2);
    expect(await limit.take("org_other_mark", otherMark, { nowMs: t0 })).toMatchObject({ kind: "allowed" });
  });

  it("reads one more key with an admitted request's token, and nothing for a refused one", async () => {
    const limit = new OrgRateLimit(replicaA, prefix, 1);
    const mark = await currentRevocationMark(replicaA, prefix, "org_read");
    await replicaB.set(orgKey(prefix, "org_read", "session", "x"), "sealed");
    const t0 = 6_000 * MINUTE;
    expect(await limit.take("org_read", mark, { nowMs: t0, read: orgKey(prefix, "org_read", "session", "x") })).toEqual(
      { kind: "allowed", remaining: 0, resetMs: MINUTE, read: "sealed" },
    );
    expect(
      await limit.take("org_read", mark, { nowMs: t0, read: orgKey(prefix, "org_read", "session", "x") }),
    ).toMatchObject({ kind: "limited" });
    expect(
      await limit.take("org_read", mark, { nowMs: t0 + MINUTE, read: orgKey(prefix, "org_read", "session", "none") }),
    ).toMatchObject({ kind: "allowed", read: null });
  });

  it("uses Redis's clock when the caller gives none", async () => {
    const limit = new OrgRateLimit(replicaA, prefix, 3);
    const mark = await currentRevocationMark(replicaA, prefix, "org_clock");
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await limit.take("org_clock", mark));
    expect(verdicts.map((v) => v.kind)).toEqual(["allowed", "allowed", "allowed", "limited"]);
  });
});
