import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import type { CapturedSession } from "@authsvc/contracts";
import { SessionCache } from "./session-cache";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `session-cache-test-${process.pid}`;
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const cache = new SessionCache(redis, PREFIX, new Envelope(parseKeyRing(`1:${randomBytes(32).toString("base64")}`)));

const session = (sid: string): CapturedSession => {
  const cookies = [
    {
      name: "sid",
      value: sid,
      domain: "shop.example",
      path: "/",
      expires: -1,
      httpOnly: true,
      secure: true,
      sameSite: "Lax" as const,
    },
  ];
  return {
    cookies,
    origins: ["https://shop.example"],
    storageState: { cookies, origins: [] },
    signedInPage: "https://shop.example/account",
  };
};

afterAll(async () => {
  const keys = await redis.keys(`${PREFIX}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe("SessionCache", () => {
  it("answers a hit without its signed-in page, which it keeps for the check, with when it was last checked", async () => {
    await cache.set("org_1", "fp-a", session("one"), 600, 1_000);
    const entry = await cache.get("org_1", "fp-a");
    expect(entry).toMatchObject({ signedInPage: "https://shop.example/account", checkedAt: 1_000 });
    expect(Object.keys(entry!.session).sort()).toEqual(["cookies", "origins", "storageState"]);
    await cache.markChecked("org_1", "fp-a", entry!, 2_000);
    expect((await cache.get("org_1", "fp-a"))!.checkedAt).toBe(2_000);
    // The TTL the login set is kept.
    expect(await cache.ttlSeconds("org_1", "fp-a")).toBeGreaterThan(590);
  });

  it("never overwrites or drops an entry a login replaced while a check of the old one ran", async () => {
    await cache.set("org_1", "fp-b", session("old"), 600, 0);
    const read = (await cache.get("org_1", "fp-b"))!;
    await cache.set("org_1", "fp-b", session("new"), 600);
    await cache.markChecked("org_1", "fp-b", read);
    await cache.dropIfUnchanged("org_1", "fp-b", read);
    expect((await cache.get("org_1", "fp-b"))!.session.cookies[0]!.value).toBe("new");
    // Unchanged, it is dropped; a dropped one is not brought back by a late mark.
    const current = (await cache.get("org_1", "fp-b"))!;
    await cache.dropIfUnchanged("org_1", "fp-b", current);
    await cache.markChecked("org_1", "fp-b", current);
    expect(await cache.get("org_1", "fp-b")).toBeNull();
  });
});
