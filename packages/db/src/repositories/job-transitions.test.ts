import {
  allows,
  ENDED_STATUSES,
  OPEN_STATUSES,
  failureBy,
  heldWhere,
  isHeldByRun,
  JOB_STATUSES,
  JOB_TRANSITIONS,
  statusAfter,
  type JobRecordStatus,
  type TransitionName,
} from "./job-transitions";

// The table as a reader checks it: every allowed (transition, from) pair and the status it leads to.
const ALLOWED: Array<[TransitionName, JobRecordStatus, JobRecordStatus]> = [
  ["claim", "queued", "running"],
  ["claim", "running", "running"],
  ["markSubmitted", "running", "running"],
  ["askInput", "running", "running"],
  ["answerInput", "running", "running"],
  ["takeInput", "running", "running"],
  ["clearInput", "running", "running"],
  ["requeue", "running", "queued"],
  ["succeed", "running", "succeeded"],
  ["fail", "running", "failed"],
  ["failUnrun", "queued", "failed"],
  ["failOpen", "queued", "failed"],
  ["failOpen", "running", "failed"],
  ["reopenForReplay", "failed", "queued"],
  ["undoReplay", "queued", "failed"],
];

describe("the auth job transitions table", () => {
  it("allows exactly the listed transitions, each to its status", () => {
    for (const name of Object.keys(JOB_TRANSITIONS) as TransitionName[]) {
      for (const from of JOB_STATUSES) {
        const row = ALLOWED.find(([n, f]) => n === name && f === from);
        expect([name, from, allows(name, from)]).toEqual([name, from, Boolean(row)]);
        if (row) expect(JOB_TRANSITIONS[name].to).toBe(row[2]);
      }
    }
  });

  it("refuses every change of an ended job but a replay of a failure", () => {
    for (const name of Object.keys(JOB_TRANSITIONS) as TransitionName[]) {
      expect([name, allows(name, "succeeded")]).toEqual([name, false]);
      expect([name, allows(name, "failed")]).toEqual([name, name === "reopenForReplay"]);
    }
    expect(JOB_STATUSES.filter((s) => !(ENDED_STATUSES as readonly string[]).includes(s))).toEqual([...OPEN_STATUSES]);
  });

  it("records a new job queued, from nothing", () => {
    expect(JOB_TRANSITIONS.record).toEqual({ from: [], to: "queued", holder: "starter" });
  });

  it("guards each write by its holder and the statuses it is allowed from", () => {
    expect(heldWhere("succeed", "job_1", { attempts: 3 })).toEqual({ id: "job_1", attempts: 3, status: "running" });
    expect(heldWhere("failOpen", "job_1", {})).toEqual({ id: "job_1", status: { in: ["queued", "running"] } });
    expect(heldWhere("claim", "job_1", { attempts: 2 })).toEqual({
      id: "job_1",
      attempts: 2,
      status: { in: ["queued", "running"] },
    });
    expect(heldWhere("undoReplay", "job_1", { attempts: 2 })).toEqual({ id: "job_1", attempts: 2, status: "queued" });
    // The holder cannot widen the statuses: the table's condition comes last.
    expect(heldWhere("requeue", "job_1", { attempts: 1, status: "failed" }).status).toBe("running");
  });

  it("ends a job failed by the transition of its writer", () => {
    expect(failureBy(4)).toEqual({ name: "fail", held: { attempts: 4 } });
    expect(failureBy("unrun")).toEqual({ name: "failUnrun", held: {} });
    expect(failureBy("open")).toEqual({ name: "failOpen", held: {} });
  });

  it("sets the status only of writes that change it", () => {
    expect(statusAfter("markSubmitted")).toEqual({});
    expect(statusAfter("askInput")).toEqual({});
    expect(statusAfter("claim")).toEqual({ status: "running" });
    expect(statusAfter("requeue")).toEqual({ status: "queued" });
    expect(statusAfter("reopenForReplay")).toEqual({ status: "queued" });
    expect(statusAfter("undoReplay")).toEqual({ status: "failed" });
  });

  it("tells whether a run holds a job as read: its newest run, running", () => {
    expect(isHeldByRun({ status: "running", attempts: 2 }, 2)).toBe(true);
    expect(isHeldByRun({ status: "running", attempts: 3 }, 2)).toBe(false);
    expect(isHeldByRun({ status: "succeeded", attempts: 2 }, 2)).toBe(false);
    expect(isHeldByRun({ status: "queued", attempts: 2 }, 2)).toBe(false);
  });
});
