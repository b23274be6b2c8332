import type { JobInput, JobKind, LoginMethod, SignupMethod } from "@authsvc/contracts";
import { newId } from "@authsvc/crypto";
import { enqueueAuthJob, flightTtlMs, gateSite, queueConnection, ridingFailover } from "@authsvc/queue";
import { tell, type JobDeps } from "./job-deps";

export interface StartJob {
  orgId: string;
  kind: JobKind;
  method: LoginMethod | SignupMethod;
  /** The login page (a signup's page, or its invitation's). */
  loginUrl: string;
  useCache: boolean;
  /** The caller allowed a hand-off to a person (`allowHandoff`). */
  allowHandoff?: boolean;
  /** The single-flight key (see `session-keys`): identical concurrent jobs share one run. */
  fingerprint: string;
  requestId?: string;
  input: JobInput;
  /**
   * Whose job it is: a credential that exists (refresh, verify, keep-alive), or the identity to find or
   * create one by (a login, a signup; the credential is created on first use).
   */
  credential: { id: string } | { collectionExternalId?: string; username?: string };
  /** The worker region the request named (the credential keeps it); absent: the credential's own, if any. */
  region?: string;
  /** False: a region with no worker is refused at once, without the REGION_WAIT_MS wait (a keep-alive tries again on its next run). */
  awaitRegion?: boolean;
}

/** No worker of the region a job asked for is running (none came within REGION_WAIT_MS): nothing was queued. */
export class RegionUnavailable extends Error {
  constructor(
    readonly region: string,
    readonly live: string[],
  ) {
    super(
      `No worker of region "${region}" is running, so the job was not queued. ` +
        (live.length
          ? `Regions with a worker now: ${live.join(", ")}.`
          : "No region has a worker now; jobs that name no region run on any worker."),
    );
    this.name = "RegionUnavailable";
  }
}

/**
 * Starts an auth job: claims its single-flight key and, when this start won it, records the job (with its
 * credential) and queues it. Returns the job that does the work: ours, or the running one we joined.
 *
 * A job of a worker region (the one the request names, else the credential's own) is queued in that
 * region's queue, and only once a worker of that region runs: it waits for one up to REGION_WAIT_MS (a
 * worker may be starting), then throws `RegionUnavailable` with nothing recorded. A request that names a
 * region moves the credential there.
 *
 * Anything that fails after the claim is rolled back before the error is thrown: a recorded job is ended
 * as `service_unavailable`, and the claim is released, so no caller joins (and waits the whole claim TTL
 * for) a job that will never run.
 */
export async function startJob(
  deps: Pick<JobDeps, "config" | "db" | "authQueue" | "flight" | "progress" | "log" | "regions">,
  job: StartJob,
): Promise<string> {
  const { db, flight, authQueue, config } = deps;
  const { orgId, fingerprint } = job;
  const ensureWorker = async (region: string) => {
    if (!(await deps.regions.awaitWorker(region, job.awaitRegion === false ? 0 : config.worker.regionWaitMs)))
      throw new RegionUnavailable(region, await deps.regions.live());
  };
  // The region, when it is known before anything is created (the request's, or that of a credential named by
  // id), is checked before the claim: identical requests that joined would otherwise wait on a job that is
  // never recorded.
  const known =
    job.region ?? ("id" in job.credential ? await db.credentials.region(orgId, job.credential.id) : null) ?? undefined;
  if (known) await ensureWorker(known);
  // Redis failing over (a cluster promoting a replica) is waited out, up to REDIS_FAILOVER_WAIT_MS, by trying
  // again as the same job: a claim that holds our id is ours (SingleFlight), the queue takes a job id once.
  const ownId = newId("job");
  const jobId = (await flight.claim(orgId, fingerprint, ownId, flightTtlMs(config))) ?? ownId;
  if (jobId !== ownId) return jobId;
  let recorded = false;
  try {
    const credential =
      "id" in job.credential
        ? { id: job.credential.id, region: known ?? null }
        : await ensureCredential(deps, job, ownId);
    const credentialId = credential.id;
    // The request's region, else the credential's own (read with it): a login of a credential found by its
    // identity, whose region is only known now.
    const region = job.region ?? credential.region ?? undefined;
    if (region && region !== known) await ensureWorker(region);
    if (job.region) await db.credentials.moveRegion(orgId, credentialId, job.region);
    const { credential: _who, awaitRegion: _wait, ...fields } = job;
    await db.jobLifecycle.create({ ...fields, region, credentialId }, ownId);
    recorded = true;
    // Told before it is queued: a worker may take it at once, and its `started` must come after.
    await tell(deps, ownId, "queued");
    await ridingFailover(queueConnection(authQueue), () =>
      enqueueAuthJob(authQueue, { authJobId: ownId, orgId, site: gateSite(job.loginUrl), region }, gateCaps(config)),
    );
  } catch (err) {
    if (recorded) {
      await db.jobLifecycle
        .fail(ownId, "unrun", "service_unavailable", "the login could not be queued")
        .catch(() => undefined);
      await tell(deps, ownId, "failed", { code: "service_unavailable" });
    }
    await flight.release(orgId, fingerprint, ownId).catch(() => undefined);
    throw err;
  }
  return ownId;
}

/** The concurrency caps jobs are queued and run under (see `JobGate`). */
export function gateCaps(config: Pick<JobDeps["config"], "worker">) {
  return { perOrg: config.worker.orgMaxRunningJobs, perSite: config.worker.siteMaxRunningJobs };
}

async function ensureCredential(
  deps: Pick<JobDeps, "db">,
  job: StartJob,
  ownId: string,
): Promise<{ id: string; region: string | null }> {
  const identity = job.credential as { collectionExternalId?: string; username?: string };
  // A signup with no email yet (an invitation that shows it) is named by its job until it is known.
  const credential = await deps.db.credentials.ensure(
    {
      orgId: job.orgId,
      collectionExternalId: identity.collectionExternalId,
      username: identity.username ?? `signup:${ownId}`,
      loginUrl: job.loginUrl,
    },
    { anyPageOfSite: job.kind === "signup" },
  );
  return credential;
}
