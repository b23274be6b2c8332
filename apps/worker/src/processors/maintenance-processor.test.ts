import type { Job } from "bullmq";
import { UnknownMaintenanceTask } from "@authsvc/queue";
import { createMaintenanceProcessor } from "./maintenance-processor";

type Deps = Parameters<typeof createMaintenanceProcessor>[0];

describe("the maintenance processor", () => {
  it("fails a job whose name is no maintenance task, and runs nothing (not the retention sweep)", async () => {
    const touched: string[] = [];
    // Any use of the database, the jobs or the config would be a task running: each records it and fails.
    const spy = (what: string) =>
      new Proxy(
        {},
        {
          get: (_t, key) => {
            touched.push(`${what}.${String(key)}`);
            throw new Error(`${what} used`);
          },
        },
      );
    const log = { info: () => touched.push("log.info") };
    const deps = { config: spy("config"), db: spy("db"), jobs: spy("jobs"), log } as unknown as Deps;
    const process = createMaintenanceProcessor(deps);
    await expect(process({ name: "retentoin" } as Job)).rejects.toThrow(UnknownMaintenanceTask);
    expect(touched).toEqual([]);
  });

  it("runs the task its name names", async () => {
    let swept = 0;
    const jobs = { sweepOpen: async () => ({ requeued: swept++, ended: 0 }) };
    const deps = { jobs } as unknown as Deps;
    await expect(createMaintenanceProcessor(deps)({ name: "sweep-open-jobs" } as Job)).resolves.toEqual({
      requeued: 0,
      ended: 0,
    });
    expect(swept).toBe(1);
  });
});
