import { startOwnRedis, waitFor } from "@authsvc/devstack";
import { waitForDependencies } from "@authsvc/lifecycle";
import { createRedis, redisDependency } from "@authsvc/queue";

// A service may start before its Redis (an orchestrator starts them together) or on a machine so busy that
// its first connection times out. It waits, saying what for and why, and starts once Redis is there.
describe("a service's start-up wait (every app's main)", () => {
  it("waits for a Redis that is not there yet, says why, and goes on once it is", async () => {
    const own = await startOwnRedis();
    await own.kill();
    const { lines, log } = capturedLog();
    const redis = createRedis(own.url, "producer", "start-up-test", log);
    try {
      let started = false;
      const waiting = waitForDependencies(log, [redisDependency(redis)], {
        retryMs: 100,
        reportEveryMs: 200,
        graceMs: 0,
      }).then(() => (started = true));
      // The state that shows it waits: the log said so, with the connection's own error.
      await waitFor(
        "the wait logged with Redis' own error",
        () => lines.some((l) => l.message === "waiting for Redis" && /ECONNREFUSED/.test(l.fields.err)),
        { everyMs: 20 },
      );
      // ioredis' errors go to the service's log too (not its "Unhandled error event" traces), once per kind.
      expect(
        lines.filter(
          (l) => l.message === "Redis connection error; reconnecting" && l.fields.connection === "start-up-test",
        ).length,
      ).toBe(1);
      expect(started).toBe(false);
      await own.start();
      await waiting;
      expect(lines.at(-1)).toMatchObject({
        level: "info",
        message: "Redis is there; starting",
        fields: { dependency: "Redis" },
      });
      expect(await redis.ping()).toBe("PONG");
    } finally {
      redis.disconnect();
      await own.stop();
    }
  });

  it("reports a dependency that is still missing once per period, not on every retry", async () => {
    const { lines: logged, log } = capturedLog();
    const messages = () => logged.map((l) => l.message);
    let checks = 0;
    const flaky = {
      name: "PostgreSQL",
      check: async () => {
        if (++checks <= 30) throw new Error("connection refused");
      },
    };
    await waitForDependencies(log, [flaky, { name: "Redis", check: async () => undefined }], {
      retryMs: 1,
      reportEveryMs: 600_000,
      graceMs: 0,
    });
    expect(checks).toBe(31);
    // 30 failures within one report period: one line when the wait began, one when it ended; nothing of Redis, which answered.
    expect(messages()).toEqual(["waiting for PostgreSQL", "PostgreSQL is there; starting"]);
  });

  it("says nothing of a dependency that answers within the grace period (a connection still opening at start)", async () => {
    const { lines: logged, log } = capturedLog();
    const messages = () => logged.map((l) => l.message);
    let checks = 0;
    const opening = {
      name: "Redis",
      check: async () => {
        if (++checks <= 3) throw new Error("connection connecting");
      },
    };
    // A grace no busy machine outlasts in 3 retries of 1 ms.
    await waitForDependencies(log, [opening], { retryMs: 1, graceMs: 600_000 });
    expect([checks, messages()]).toEqual([4, []]);
  });
});

/** A service log that keeps its lines, for the test to read. */
function capturedLog() {
  const lines: { level: string; fields: any; message: string }[] = [];
  const line = (level: string) => (fields: object, message: string) => void lines.push({ level, fields, message });
  return { lines, log: { info: line("info"), warn: line("warn") } };
}
