import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { enqueueAuthJob, type AuthJobPayload } from "./auth-queue";
import { JobGate, gateSite, type GateSlot } from "./job-gate";
import { queuePrefix } from "./redis-keys";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `job-gate-test-${process.pid}`;
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const queue = new Queue<AuthJobPayload>("auth", { connection: redis, prefix: queuePrefix(PREFIX, "auth") });
const caps = { perOrg: 2, perSite: 3 };
const gate = (timing = { leaseMs: 30_000, recheckMs: 60_000 }) => new JobGate(redis, queue, caps, timing);
let n = 0;
const slot = (orgId: string, site = `${orgId}.example`): GateSlot => ({ jobId: `job_${++n}`, orgId, site });
const running = (kind: "org" | "site", id: string) =>
  redis.zrange(`${queue.opts.prefix}:gate:${kind}:${id}:running`, 0, -1);

afterAll(async () => {
  await queue.obliterate({ force: true });
  const keys = await redis.keys(`${PREFIX}:*`);
  if (keys.length) await redis.del(...keys);
  await queue.close();
  redis.disconnect();
});

describe("JobGate", () => {
  it("takes a slot under the org cap and the site cap together, or under neither", async () => {
    const g = gate();
    // Org A fills the site up to its cap minus one; org B then fills it.
    const a1 = slot("org_a1", "site.example");
    const a2 = { ...slot("org_a1", "site.example"), site: "other.example" };
    expect(await g.acquire(a1)).toBe(true);
    expect(await g.acquire(a2)).toBe(true);
    // Org A is at its cap: refused although the site has room, and the site slot is not taken either.
    const a3 = slot("org_a1", "site.example");
    expect(await g.acquire(a3)).toBe(false);
    expect(await running("site", "site.example")).toEqual([a1.jobId]);
    const b1 = slot("org_b1", "site.example");
    const b2 = slot("org_b1", "site.example");
    expect(await g.acquire(b1)).toBe(true);
    expect(await g.acquire(b2)).toBe(true);
    // The site is at its cap: org C (no job running) is refused, and holds no org slot for it.
    const c1 = slot("org_c1", "site.example");
    expect(await g.acquire(c1)).toBe(false);
    expect(await running("org", "org_c1")).toEqual([]);
    // A job that already holds its slots (run again after its worker died) keeps them.
    expect(await g.acquire(b2)).toBe(true);
    expect((await running("site", "site.example")).sort()).toEqual([a1.jobId, b1.jobId, b2.jobId].sort());
  });

  it("keeps an org slot for a job that waits only for its site, so the org's other jobs do not queue up behind the site", async () => {
    const g = gate();
    for (const orgId of ["org_x", "org_x", "org_y"]) expect(await g.acquire(slot(orgId, "full.example"))).toBe(true);
    const r1 = slot("org_r", "full.example");
    expect(await g.acquire(r1)).toBe(false);
    expect(await redis.zrange(`${queue.opts.prefix}:gate:site:full.example:waiting`, 0, -1)).toEqual([r1.jobId]);
    expect(await redis.zrange(`${queue.opts.prefix}:gate:org:org_r:waiting`, 0, -1)).toEqual([]);
    // Org R has one slot left: taken by a job to another site; the next one waits for the org.
    expect(await g.acquire(slot("org_r", "free.example"))).toBe(true);
    const r3 = slot("org_r", "free.example");
    expect(await g.acquire(r3)).toBe(false);
    expect(await redis.zrange(`${queue.opts.prefix}:gate:org:org_r:waiting`, 0, -1)).toEqual([r3.jobId]);
    // The job that waits for its site still passes the org cap when the site frees.
    await g.release({ jobId: (await running("site", "full.example"))[0]!, orgId: "org_x", site: "full.example" });
    expect(await g.acquire(r1)).toBe(true);
  });

  it("lets a waiting job run before one that arrives after it", async () => {
    const g = gate();
    const first = slot("org_fifo");
    const second = slot("org_fifo");
    expect(await g.acquire(first)).toBe(true);
    expect(await g.acquire(second)).toBe(true);
    const waiting = slot("org_fifo");
    expect(await g.acquire(waiting)).toBe(false);
    await queue.add(
      "auth",
      { authJobId: waiting.jobId, orgId: waiting.orgId },
      { jobId: waiting.jobId, delay: 60_000 },
    );
    await g.release(first);
    // One slot is free and one job waits for it: a newcomer does not take it.
    expect(await g.acquire(slot("org_fifo"))).toBe(false);
    expect(await g.acquire(waiting)).toBe(true);
  });

  it("promotes the next waiting (parked) job when a slot is released", async () => {
    const g = gate();
    const holders = [slot("org_p"), slot("org_p")];
    for (const h of holders) expect(await g.acquire(h)).toBe(true);
    const parked = [slot("org_p"), slot("org_p")];
    for (const p of parked) {
      expect(await g.acquire(p)).toBe(false);
      // As a worker parks it: delayed far in the future, so only a promotion brings it back.
      await queue.add("auth", { authJobId: p.jobId, orgId: p.orgId, site: p.site }, { jobId: p.jobId, delay: 60_000 });
    }
    await g.release(holders[0]!);
    // Promoted with its place in its org's line as its priority: the org's second holder runs, so the second.
    expect(await (await queue.getJob(parked[0]!.jobId))!.getState()).toBe("prioritized");
    expect((await queue.getJob(parked[0]!.jobId))!.priority).toBe(2);
    expect(await (await queue.getJob(parked[1]!.jobId))!.getState()).toBe("delayed");
    await g.release(holders[1]!);
    expect(await (await queue.getJob(parked[1]!.jobId))!.getState()).toBe("prioritized");
  });

  it("drops a waiting job that no longer exists and promotes the one behind it", async () => {
    const g = gate();
    const holder = slot("org_gone", "gone.example");
    const other = slot("org_gone", "elsewhere.example");
    expect(await g.acquire(holder)).toBe(true);
    expect(await g.acquire(other)).toBe(true);
    const ghost = slot("org_gone");
    const parked = slot("org_gone");
    expect(await g.acquire(ghost)).toBe(false);
    expect(await g.acquire(parked)).toBe(false);
    await queue.add("auth", { authJobId: parked.jobId, orgId: parked.orgId }, { jobId: parked.jobId, delay: 60_000 });
    await g.release(holder);
    expect(await (await queue.getJob(parked.jobId))!.getState()).toBe("prioritized");
    expect(await redis.zrange(`${queue.opts.prefix}:gate:org:org_gone:waiting`, 0, -1)).toEqual([parked.jobId]);
  });

  it("frees the slot of a job whose lease expired (its worker died), and keeps a renewed one", async () => {
    // Leases are scored by the gate's clock (Date.now, sent to Redis); the test moves it, so that a renewal every
    // third of the lease keeps a slot however slowly a loaded machine gets from one renewal to the next.
    let now = Date.now();
    const clock = jest.spyOn(Date, "now").mockImplementation(() => now);
    try {
      const g = gate({ leaseMs: 300, recheckMs: 60_000 });
      const dead = slot("org_lease");
      const alive = slot("org_lease");
      expect(await g.acquire(dead)).toBe(true);
      expect(await g.acquire(alive)).toBe(true);
      const next = slot("org_lease");
      expect(await g.acquire(next)).toBe(false);
      for (let i = 0; i < 4; i++) {
        now += 100;
        await g.renew(alive);
      }
      expect(await g.acquire(next)).toBe(true);
      expect((await running("org", "org_lease")).sort()).toEqual([alive.jobId, next.jobId].sort());
    } finally {
      clock.mockRestore();
    }
  });

  it("queues an org's jobs beyond its cap delayed at enqueue time, and another org's job at once", async () => {
    const enqueue = (orgId: string) => {
      const s = slot(orgId, "burst.example");
      return enqueueAuthJob(queue, { authJobId: s.jobId, orgId, site: s.site }, caps).then(() => s.jobId);
    };
    const burst: string[] = [];
    for (let i = 0; i < 6; i++) burst.push(await enqueue("org_burst"));
    const single = await enqueue("org_single");
    const states = await Promise.all([...burst, single].map(async (id) => (await queue.getJob(id))!.getState()));
    expect(states).toEqual(["prioritized", "prioritized", "delayed", "delayed", "delayed", "delayed", "prioritized"]);
    expect(await redis.zrange(`${queue.opts.prefix}:gate:org:org_burst:waiting`, 0, -1)).toEqual(burst.slice(2));
    // Each with its place in its org's line: the burst's first two 1 and 2, the single login 1.
    const priorities = await Promise.all([...burst, single].map(async (id) => (await queue.getJob(id))!.priority));
    expect([priorities[0], priorities[1], priorities[6]]).toEqual([1, 2, 1]);
  });

  it("gives a freed slot to the organization with the fewest jobs ahead, not to the oldest job", async () => {
    // A separate queue, so that this test's worker takes only its own jobs. No org cap: org A's burst is let in whole.
    const fair = new Queue<AuthJobPayload>("auth-fair", {
      connection: redis,
      prefix: queuePrefix(PREFIX, "auth-fair"),
    });
    const uncapped = { perOrg: 0, perSite: 0 };
    const enqueue = async (orgId: string) => {
      const s = slot(orgId);
      await enqueueAuthJob(fair, { authJobId: s.jobId, orgId }, uncapped);
      return s.jobId;
    };
    const burst: string[] = [];
    for (let i = 0; i < 6; i++) burst.push(await enqueue("org_fair_a"));
    const single = await enqueue("org_fair_b");
    // One slot: the order the queue hands the jobs out is the order they would run in.
    const taken: string[] = [];
    const blocking = redis.duplicate();
    const worker = new Worker<AuthJobPayload>("auth-fair", async (job) => void taken.push(job.data.authJobId), {
      connection: blocking,
      prefix: fair.opts.prefix,
      concurrency: 1,
    });
    try {
      await new Promise<void>((resolve) => worker.on("completed", () => taken.length === 7 && resolve()));
    } finally {
      await worker.close();
      blocking.disconnect();
      await fair.obliterate({ force: true });
      await fair.close();
    }
    // B's one login runs second (behind A's first, which came before it with the same place), not seventh.
    expect(taken).toEqual([burst[0], single, ...burst.slice(1)]);
  });

  it("keeps an org's jobs in their order: a later job never gets a place before its org's newest one in line", async () => {
    const uncapped = { perOrg: 0, perSite: 0 };
    const priorityOf = async (id: string) => (await queue.getJob(id))!.priority;
    const enqueue = async () => {
      const s = slot("org_line", "line.example");
      await enqueueAuthJob(queue, { authJobId: s.jobId, orgId: s.orgId, site: s.site }, uncapped);
      return s;
    };
    const burst = [await enqueue(), await enqueue(), await enqueue()];
    expect(await Promise.all(burst.map((s) => priorityOf(s.jobId)))).toEqual([1, 2, 3]);
    // The burst's admissions lapse (a minute without a worker picking them, as on a saturated queue): counted by
    // them alone, the next job would go first of its org.
    const clock = jest.spyOn(Date, "now").mockReturnValue(Date.now() + 61_000);
    try {
      const later = await enqueue();
      expect(await priorityOf(later.jobId)).toBe(3);
      // Its newest job started: the line is empty again, and the next job's place is counted afresh.
      expect(await new JobGate(redis, queue, uncapped).acquire(later)).toBe(true);
      const next = await enqueue();
      expect(await priorityOf(next.jobId)).toBe(2);
    } finally {
      clock.mockRestore();
    }
  });

  it("gives a head of its org's line its place now when a slot frees, also once BullMQ moved it back to the queue itself", async () => {
    const g = gate();
    const holders = [slot("org_stale"), slot("org_stale")];
    for (const h of holders) expect(await g.acquire(h)).toBe(true);
    const parked = slot("org_stale");
    expect(await g.acquire(parked)).toBe(false);
    await queue.add(
      "auth",
      { authJobId: parked.jobId, orgId: parked.orgId, site: parked.site },
      { jobId: parked.jobId, priority: 40, delay: 60_000 },
    );
    // Its recheck came before any promotion: BullMQ put it back with the place it was parked with.
    await (await queue.getJob(parked.jobId))!.promote();
    expect(await (await queue.getJob(parked.jobId))!.getState()).toBe("prioritized");
    await g.release(holders[0]!);
    // The org has one job running: the parked one is second in its line.
    expect((await queue.getJob(parked.jobId))!.priority).toBe(2);
  });

  it("counts a login against its page's host", () => {
    expect(gateSite("https://Accounts.Example.com:8443/login?next=/")).toBe("accounts.example.com");
    expect(gateSite("not a url")).toBeUndefined();
  });
});
