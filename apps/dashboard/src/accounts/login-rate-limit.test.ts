import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { LoginRateLimit } from "./login-rate-limit";

const redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
afterAll(() => redis.quit());

describe("LoginRateLimit (real Redis)", () => {
  it("refuses an email after its failures fill the window, with the wait until the oldest leaves it", async () => {
    const limit = new LoginRateLimit(redis, `test-${randomBytes(4).toString("hex")}`, {
      windowMs: 60_000,
      perEmail: 3,
      perIp: 100,
    });
    for (let i = 0; i < 3; i++) {
      await expect(limit.retryAfter("A@example.test", "10.0.0.1")).resolves.toBe(0);
      await limit.recordFailure("a@example.test", "10.0.0.1");
    }
    const wait = await limit.retryAfter("a@example.test", "10.0.0.2");
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    await expect(limit.retryAfter("b@example.test", "10.0.0.1")).resolves.toBe(0);
  });

  it("refuses a client address that fails across many emails", async () => {
    const limit = new LoginRateLimit(redis, `test-${randomBytes(4).toString("hex")}`, {
      windowMs: 60_000,
      perEmail: 100,
      perIp: 2,
    });
    await limit.recordFailure("one@example.test", "10.0.0.9");
    await limit.recordFailure("two@example.test", "10.0.0.9");
    expect(await limit.retryAfter("three@example.test", "10.0.0.9")).toBeGreaterThan(0);
    await expect(limit.retryAfter("three@example.test", "10.0.0.8")).resolves.toBe(0);
  });

  it("forgets failures older than the window", async () => {
    // The window slides on the limiter's clock (Date.now, its times kept in Redis): the test moves that clock.
    let now = Date.now();
    const clock = jest.spyOn(Date, "now").mockImplementation(() => now);
    try {
      const limit = new LoginRateLimit(redis, `test-${randomBytes(4).toString("hex")}`, {
        windowMs: 60_000,
        perEmail: 1,
        perIp: 100,
      });
      await limit.recordFailure("c@example.test", "10.0.0.3");
      now += 59_000;
      await expect(limit.retryAfter("c@example.test", "10.0.0.3")).resolves.toBe(1);
      now += 1_001;
      await expect(limit.retryAfter("c@example.test", "10.0.0.3")).resolves.toBe(0);
    } finally {
      clock.mockRestore();
    }
  });
});
