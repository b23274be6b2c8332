import {
  MAINTENANCE_TASKS,
  maintenanceTaskOf,
  scheduleMaintenance,
  UnknownMaintenanceTask,
  type MaintenanceSchedule,
} from "./maintenance-queue";

const schedule: MaintenanceSchedule = {
  keepAliveEveryMs: 300_000,
  sweepEveryMs: 60_000,
  statsEveryMs: 61_000,
  siteStatsEveryMs: 301_000,
};

/** A queue that records what is asked of its job schedulers. */
function recordingQueue() {
  const upserted = new Map<string, { every: number; name: string }>();
  const removed: string[] = [];
  const queue = {
    upsertJobScheduler: async (id: string, repeat: { every?: number }, template?: { name?: string }) => {
      upserted.set(id, { every: repeat.every!, name: template!.name! });
      return undefined as never;
    },
    removeJobScheduler: async (id: string) => {
      removed.push(id);
      return true;
    },
  };
  return { queue, upserted, removed };
}

describe("the maintenance catalog", () => {
  it("schedules every task of the catalog under its own name, at its interval", async () => {
    const { queue, upserted, removed } = recordingQueue();
    await scheduleMaintenance(queue, schedule);
    expect([...upserted.keys()].sort()).toEqual(Object.keys(MAINTENANCE_TASKS).sort());
    for (const [id, { name }] of upserted) expect(name).toBe(id);
    expect(upserted.get("retention")!.every).toBe(5 * 60 * 1000);
    expect(upserted.get("sweep-open-jobs")!.every).toBe(60_000);
    expect(upserted.get("job-stats")!.every).toBe(61_000);
    expect(upserted.get("job-stats-sites")!.every).toBe(301_000);
    expect(upserted.get("keepalive")!.every).toBe(300_000);
    expect(removed).toEqual([]);
  });

  it("removes the scheduler of a task whose interval is 0 (keep-alive turned off)", async () => {
    const { queue, upserted, removed } = recordingQueue();
    await scheduleMaintenance(queue, { ...schedule, keepAliveEveryMs: 0 });
    expect(upserted.has("keepalive")).toBe(false);
    expect(removed).toEqual(["keepalive"]);
  });

  it("knows each task by its name, and throws for any other name", () => {
    for (const name of Object.keys(MAINTENANCE_TASKS)) expect(maintenanceTaskOf(name)).toBe(name);
    for (const name of ["", "retention ", "Retention", "toString", "__proto__", "sweep"])
      expect(() => maintenanceTaskOf(name)).toThrow(UnknownMaintenanceTask);
  });
});
