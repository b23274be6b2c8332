import {
  applyBrowserProfile,
  preparePagesLike,
  preparePagesOf,
  type BrowserContext,
  type BrowserHost,
  contextOptions,
  type BrowserProfile,
  chooseBrowserProfile,
  DEFAULT_PROFILE_REGION,
  type Page,
  type ProxyDoor,
  ProxyFailure,
  relocateBrowserProfile,
  type TargetGuard,
} from "@authsvc/browser";
import type { Config } from "@authsvc/config";
import type { InboxRef, JobEventType } from "@authsvc/contracts";
import { freshTotpCode, parseTotpSecret } from "@authsvc/crypto";
import { type Database, ProxyGoneError, type RunProxy } from "@authsvc/db";
import { type CaptchaSolver, type FlowMilestone, LoginFlowError } from "@authsvc/flows";
import type { AuthJobs, OpenedJob } from "@authsvc/jobs";
import type { HandoffRelay, InboxEvents, JobEventFields, SingleFlight } from "@authsvc/queue";
import type { Logger } from "@authsvc/logging";
import { jobHandoff } from "./flow-handoff";
import { flowInbox } from "./flow-inbox";
import { ProviderAccounts } from "./provider-accounts";
import type { WorkerMetrics } from "../worker-metrics";

export interface FlowRunnerDeps {
  config: Config;
  db: Database;
  browser: BrowserHost;
  guard: TargetGuard;
  metrics: WorkerMetrics;
  /** Wake-ups of our inboxes (mail-in, SMS webhook), for flows that wait for a code or link. */
  inboxEvents: InboxEvents;
  /** Turns of provider accounts (one OAuth login at a time per account). */
  flight: SingleFlight;
  /** The operator's CAPTCHA solving service, when configured; without one a challenge ends in captcha_blocked. */
  captchaSolver?: CaptchaSolver;
  /** The job's life (the hand-off to a person records its question there). */
  jobs: AuthJobs;
  /** Aborted when the worker stops: a job waiting for a person ends at once. */
  stopping: AbortSignal;
  /** The hosted hand-off page's live view (frames out, the person's input in). */
  relay: HandoffRelay;
  log: Logger;
}

export type FlowHooks = {
  onStep: (step: string) => void;
  onMilestone: (milestone: FlowMilestone) => void;
  beforeSubmit: () => Promise<void>;
};
/**
 * The runner's own hooks: `onProgress` hears the steps the job's clients follow that the runner sees (the
 * page it opens, the inbox it waits on); `onFailurePage` sees the page a failed flow ended on, before its
 * context closes.
 */
export type RunHooks = FlowHooks & {
  onProgress: (type: JobEventType, fields?: JobEventFields) => void;
  onFailurePage?: (page: Page) => Promise<void>;
  /** The job waits for a person now (its queue entry reports progress, which wakes requests waiting for it). */
  onNeedsInput?: () => void;
};

// Past the flow's own deadline, how long we wait before closing the browser context under it.
const HARD_STOP_GRACE_MS = 5000;

/**
 * What every flow kind runs in: a fresh page of the job's own (its proxy, the credential's browser, the
 * time limit), the job's inbox and its person (the hand-off), and the deps the flows use.
 */
export function createBrowserRun(deps: FlowRunnerDeps) {
  const { config, db, browser, metrics, inboxEvents } = deps;
  const providerAccounts = new ProviderAccounts(db, deps.flight, config.crypto.fingerprintKey);

  /**
   * Runs `flow` in a fresh page of its own, through the org's proxy when it has one; `openContext` makes another
   * browser context that leaves the same way (a look at the site that must come from the login's address).
   */
  async function inPage<T>(
    job: OpenedJob,
    waits: { inbox?: boolean; handoff?: boolean },
    onFailurePage: RunHooks["onFailurePage"],
    flow: (page: Page, timeoutMs: number, openContext: () => Promise<BrowserContext>) => Promise<T>,
  ): Promise<T> {
    const timeoutMs =
      config.worker.jobTimeoutMs +
      (waits.inbox ? config.mfa.waitMs : 0) +
      (waits.handoff ? config.handoff.maxWaitMs : 0);
    const proxy = await proxyFor(job);
    return browser.withPage(
      async (page, door) => {
        metrics.activeLogins.inc();
        await showCredentialBrowser(job, page, proxy?.region ?? undefined);
        let timer: NodeJS.Timeout | undefined;
        const hardStop = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            reject(new LoginFlowError("timeout", "the login did not finish in time"));
            void page
              .browserContext()
              .close()
              .catch(() => undefined);
          }, timeoutMs + HARD_STOP_GRACE_MS);
        });
        try {
          if (door) {
            // The proxy answers before the site is shown anything: a proxy that refuses us is its own failure.
            const target = new URL(job.loginUrl);
            await door.check(target.hostname, Number(target.port || (target.protocol === "https:" ? 443 : 80)));
          }
          // Another context of this job shows the site the same browser as its page.
          const openContext = async () => {
            const context = await page.browser().createBrowserContext(contextOptions(door));
            preparePagesLike(context, page.browserContext());
            return context;
          };
          return await Promise.race([flow(page, timeoutMs, openContext), hardStop]);
        } catch (err) {
          // Still inside withPage: the context is open (unless the hard stop closed it) and the flow is done.
          await onFailurePage?.(page).catch(() => undefined);
          // The site could not be reached because the proxy failed: the proxy's failure, not the site's.
          if (
            door &&
            (err instanceof ProxyFailure ||
              (door.failure() &&
                (!(err instanceof LoginFlowError) ||
                  ["target_unreachable", "timeout", "form_not_found", "login_unconfirmed"].includes(err.code))))
          ) {
            throw proxyFailure(err, door);
          }
          throw err;
        } finally {
          clearTimeout(timer);
          metrics.activeLogins.dec();
        }
      },
      { upstream: proxy ? { url: proxy.url } : undefined },
    );
  }

  /**
   * The organization's proxy this run leaves through: the request's (a login names one or a pool), else the
   * one its credential kept; null: directly. Recorded on the credential (sticky).
   */
  async function proxyFor(job: OpenedJob): Promise<RunProxy | null> {
    const choice = "egress" in job.input && job.input.egress ? job.input.egress : {};
    try {
      const proxy = await db.proxies.forRun(job.orgId, job.credential, choice);
      if (proxy) job.credential.proxyId = proxy.id;
      return proxy;
    } catch (err) {
      if (err instanceof ProxyGoneError)
        throw new LoginFlowError("proxy_unreachable", `${err.message}; nothing was sent`, { retryable: false });
      throw err;
    }
  }

  /**
   * The browser this credential's runs show its site, chosen at its first run and kept (issue 28 §3): the
   * same system, languages, time zone and screen every time, and another than the organization's other
   * credentials show. A fault reading it leaves the page as the stealth layer set it up, for this run.
   */
  async function showCredentialBrowser(job: OpenedJob, page: Page, proxyRegion?: string): Promise<void> {
    try {
      let profile = await db.credentialBrowsers.browserProfile<BrowserProfile>(
        job.orgId,
        job.credential.id,
        (taken) => chooseBrowserProfile(proxyRegion ?? DEFAULT_PROFILE_REGION, taken),
        job.credential.browserProfile,
      );
      // Moved to a proxy of another region: the same browser, its person's languages and time zone of that region.
      if (proxyRegion && (profile.region ?? DEFAULT_PROFILE_REGION) !== proxyRegion) {
        profile = relocateBrowserProfile(profile, proxyRegion);
        await db.credentialBrowsers.saveBrowserProfile(job.orgId, job.credential.id, profile);
      }
      // The job's own copy follows: a second run of it (a retry without the remembered device) shows the same browser.
      job.credential.browserProfile = profile;
      await applyBrowserProfile(page, profile);
      // Every further page of the job (the session check's tab, a remembered device's looks) too.
      const chosen = profile;
      preparePagesOf(page.browserContext(), (other) =>
        applyBrowserProfile(other, chosen).catch((err: unknown) => {
          deps.log.warn(
            { jobId: job.id, err: String(err) },
            "the credential's browser profile not applied to a further page; it shows the default browser",
          );
        }),
      );
    } catch (err) {
      deps.log.warn(
        { jobId: job.id, err: String(err) },
        "the credential's browser profile not applied; this run shows the default browser",
      );
    }
  }

  /** The job's inbox as its flow reads it: its clients are told while the flow waits there, and when a message came. */
  function inboxFor(job: OpenedJob, ref: InboxRef, hooks: Pick<RunHooks, "onProgress">) {
    return flowInbox(db, inboxEvents, job.orgId, ref, {
      waiting: () =>
        hooks.onProgress(
          ref.kind === "email" ? "waiting_for_email" : "waiting_for_sms",
          ref.kind === "email" ? { address: ref.address } : { number: ref.number },
        ),
      received: () => hooks.onProgress("verifying"),
    });
  }

  /** The job's person, when its caller allowed a hand-off: asked on the job's record, shown the page live. */
  function handoffFor(job: OpenedJob, hooks: Pick<RunHooks, "onProgress" | "onNeedsInput">) {
    if (!job.allowHandoff) return undefined;
    const handoffDeps = {
      jobs: deps.jobs,
      events: inboxEvents,
      maxWaitMs: config.handoff.maxWaitMs,
      maxWaitingPerOrg: config.handoff.maxWaitingPerOrg,
      stopping: deps.stopping,
      relay: deps.relay,
      log: deps.log,
    };
    return jobHandoff(handoffDeps, job, { onProgress: hooks.onProgress, onAsked: () => hooks.onNeedsInput?.() });
  }

  return { deps, providerAccounts, inPage, inboxFor, handoffFor };
}

export type BrowserRun = ReturnType<typeof createBrowserRun>;

/** A TOTP secret as a flow asks for it: a fresh code made just in time. */
export function totpOf(secret: string | undefined): (() => Promise<string>) | undefined {
  return secret ? () => freshTotpCode(parseTotpSecret(secret)) : undefined;
}

/** A failure of the organization's proxy, as the job's end: `proxy_auth_failed` is never retried. */
function proxyFailure(err: unknown, door: ProxyDoor): LoginFlowError {
  const failure = err instanceof ProxyFailure ? err : door.failure();
  if (!failure)
    return err instanceof LoginFlowError
      ? err
      : new LoginFlowError("proxy_unreachable", `the proxy did not answer: ${String(err)}`);
  return new LoginFlowError(failure.code, failure.message, { retryable: failure.code === "proxy_unreachable" });
}
