import { flightTtlMs, gateSite, regionQueue, requeueAuthJob } from "@authsvc/queue";
import { gateCaps } from "./start-job";
import { abandonJob, endOpenJob } from "./fail-job";
import { tell, type JobDeps } from "./job-deps";

// A job is recorded a moment before it is queued: younger ones are left alone.
const GRACE_MS = 5000;
// A replay reopens its job before it takes the earlier run out of the queue (a run still ending is waited
// for, 5 s at most) and queues it again: the job is left alone that long after its replay began.
const REPLAY_GRACE_MS = 30_000;
// Jobs looked at per sweep; the next sweep takes the rest.
const BATCH = 500;
// Queue states in which the queue still runs the job (an active one whose worker died is BullMQ's to recover).
const LIVE = new Set(["waiting", "delayed", "prioritized", "waiting-children", "active"]);

/**
 * Jobs open in the database that the queue no longer runs would stay `queued` or `running` forever, and
 * their callers would poll forever. That happens when Redis lost its data (restarted without persistence),
 * when BullMQ gave up a job without a worker recording it (it stalled more than WORKER_MAX_STALLED times),
 * or when a run could not record its end (database away). The sweep ends them:
 * - queued and gone from the queue: queued again (nothing was submitted);
 * - failed or finished in the queue: ended (`login_unconfirmed` when the password was submitted);
 * - running and gone from the queue: its worker may still be running it, so it is ended only once it has
 *   outlived the longest a job can live (its single-flight claim's TTL);
 * - queued, not yet run, in a worker region whose last worker left more than REGION_WAIT_MS ago: ended
 *   `region_unavailable` (it would wait in a queue nobody takes from).
 */
export async function sweepOpenJobs(
  deps: Pick<JobDeps, "db" | "authQueue" | "flight" | "config" | "log" | "progress" | "regions">,
  now = Date.now(),
): Promise<{ requeued: number; ended: number }> {
  const { db, authQueue, config, log } = deps;
  let requeued = 0;
  let ended = 0;
  let live: string[] | undefined;
  for (const job of await db.authJobs.listOpen(new Date(now - GRACE_MS), BATCH)) {
    if (job.replayedAt && now - job.replayedAt.getTime() < REPLAY_GRACE_MS) continue;
    const entry = await regionQueue(authQueue, job.region).getJob(job.id);
    const state = entry ? await entry.getState() : "missing";
    if (
      job.region &&
      entry &&
      state !== "active" &&
      job.status === "queued" &&
      !job.startedAt &&
      now - (job.replayedAt ?? job.createdAt).getTime() > config.worker.regionWaitMs
    ) {
      live ??= await deps.regions.live();
      // Taken off the queue first: a worker that just came may have picked it (then it runs, and is left alone).
      if (
        !live.includes(job.region) &&
        (await entry.remove().then(
          () => true,
          () => false,
        ))
      ) {
        await endOpenJob(
          deps,
          job.orgId,
          job.id,
          "region_unavailable",
          `no worker of region "${job.region}" has been running while the job waited; it was not run`,
        );
        log.warn({ jobId: job.id, orgId: job.orgId, region: job.region }, "ended a job whose region has no worker");
        ended++;
        continue;
      }
    }
    if (LIVE.has(state)) continue;
    const gone = state === "missing" || state === "unknown";
    if (gone && job.status === "queued" && !job.submittedAt) {
      // Through the concurrency gate, like a new job: a lost burst must not bypass its org's and site's caps.
      if (
        await requeueAuthJob(
          authQueue,
          { authJobId: job.id, orgId: job.orgId, site: gateSite(job.loginUrl), region: job.region ?? undefined },
          gateCaps(config),
        )
      ) {
        requeued++;
        await tell(deps, job.id, "queued");
      }
      continue;
    }
    if (gone && now - (job.replayedAt ?? job.createdAt).getTime() < flightTtlMs(config)) continue;
    const reason = gone ? "the queue lost the job" : `the queue ended it (${entry?.failedReason || state})`;
    await abandonJob(deps, job.orgId, job.id, reason);
    log.warn(
      { jobId: job.id, orgId: job.orgId, state, submitted: Boolean(job.submittedAt) },
      "ended a job the queue no longer runs",
    );
    ended++;
  }
  if (requeued) log.warn({ requeued }, "queued again jobs the queue had lost");
  return { requeued, ended };
}
