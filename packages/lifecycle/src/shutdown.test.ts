import { createLogger } from "@authsvc/logging";
import { shutdownOnSignals } from "./shutdown";

const log = createLogger("test", "silent");

describe("shutdownOnSignals", () => {
  it("closes stage after stage, a stage's steps together, goes on past a failed step and exits 0 once", async () => {
    const order: string[] = [];
    const exits: number[] = [];
    const step = (name: string, ms: number, fail = false) => ({
      name,
      close: () =>
        new Promise<void>((resolve, reject) =>
          setTimeout(() => {
            order.push(name);
            if (fail) reject(new Error(`${name} failed`));
            else resolve();
          }, ms),
        ),
    });
    const started: string[] = [];
    const { shutdown } = shutdownOnSignals({
      log,
      timeoutMs: 5000,
      onStart: (signal) => started.push(signal),
      stages: [[step("server", 30), step("workers", 5, true)], [step("redis", 1)]],
      exit: (code) => exits.push(code),
    });
    await Promise.all([shutdown("SIGTERM"), shutdown("SIGINT")]);
    expect(started).toEqual(["SIGTERM"]);
    expect(order).toEqual(["workers", "server", "redis"]);
    expect(exits).toEqual([0]);
  });

  it("exits 1 when the stages outlast the deadline", async () => {
    const exits: number[] = [];
    let release!: () => void;
    const { shutdown } = shutdownOnSignals({
      log,
      timeoutMs: 20,
      stages: [[{ name: "stuck", close: () => new Promise<void>((resolve) => (release = resolve)) }]],
      exit: (code) => exits.push(code),
    });
    const done = shutdown("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(exits).toEqual([1]);
    release();
    await done;
  });
});
