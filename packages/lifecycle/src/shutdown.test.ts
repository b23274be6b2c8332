import { createLogger } from "@authsvc/logging";
import { shutdownOnSignals } from "./shutdown";

const log = createLogger("test", "silent");

describe("shutdownOnSignals", () => {
  it("closes stage after stage, a stage's steps together, goes on past a failed step and exits 0 once", async () => {
    const order: string[] = [];
    const exits: number[] = [];
    // Steps end on each other, not on timers: "server" ends only once "workers" has failed, which it cannot
    // do unless the stage's steps close together (one after the other, "server" would wait forever).
    let workersEnded!: () => void;
    const workersDone = new Promise<void>((r) => (workersEnded = r));
    const step = (
      name: string,
      { after, fail = false, ended }: { after?: Promise<void>; fail?: boolean; ended?: () => void } = {},
    ) => ({
      name,
      close: async () => {
        await after;
        order.push(name);
        ended?.();
        if (fail) throw new Error(`${name} failed`);
      },
    });
    const started: string[] = [];
    const { shutdown } = shutdownOnSignals({
      log,
      // Only a bound for a broken plan: the stages end in a few microtasks.
      timeoutMs: 30_000,
      onStart: (signal) => started.push(signal),
      stages: [
        [step("server", { after: workersDone }), step("workers", { fail: true, ended: workersEnded })],
        [step("redis")],
      ],
      exit: (code) => exits.push(code),
    });
    await Promise.all([shutdown("SIGTERM"), shutdown("SIGINT")]);
    expect(started).toEqual(["SIGTERM"]);
    expect(order).toEqual(["workers", "server", "redis"]);
    expect(exits).toEqual([0]);
  });

  it("exits 1 when the stages outlast the deadline", async () => {
    const exits: number[] = [];
    let exited!: () => void;
    const firstExit = new Promise<void>((r) => (exited = r));
    let release!: () => void;
    const { shutdown } = shutdownOnSignals({
      log,
      timeoutMs: 20,
      stages: [[{ name: "stuck", close: () => new Promise<void>((resolve) => (release = resolve)) }]],
      exit: (code) => {
        exits.push(code);
        exited();
      },
    });
    const done = shutdown("SIGTERM");
    // The stage never ends by itself: the only way out is the deadline.
    await firstExit;
    expect(exits).toEqual([1]);
    release();
    await done;
  });
});
