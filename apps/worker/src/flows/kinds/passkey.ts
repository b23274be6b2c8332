import type { VirtualPasskey, Page } from "@authsvc/browser";
import type { JobInput } from "@authsvc/contracts";
import { enrolPasskey, LoginFlowError, passkeyLogin, type Deadline, type PageWatch } from "@authsvc/flows";
import type { LoginSuccess, OpenedJob } from "@authsvc/jobs";
import type { BrowserRun, RunHooks } from "../browser-run";

/**
 * A passkey the site just took is only as good as a sign-in with it: a site may answer "added" and keep
 * nothing (a passkey it holds until the owner confirms it by mail, a failed write behind a 200). So a new
 * passkey signs in once, in a context of its own, before it is reported; the key comes back with the
 * counter that sign-in reached. Throws the sign-in's error when it does not sign in.
 */
export async function confirmPasskey(
  run: BrowserRun,
  job: OpenedJob,
  at: { loginUrl: string; identifier: string },
  key: VirtualPasskey,
  { onFailurePage, ...hooks }: RunHooks,
): Promise<VirtualPasskey> {
  const { guard } = run.deps;
  hooks.onStep?.("sign in once with the new passkey, in a new browser context");
  const result = await run.inPage(job, {}, onFailurePage, (page, timeoutMs, openContext) =>
    passkeyLogin(
      page,
      { loginUrl: at.loginUrl, identifier: at.identifier, passkeys: [key] },
      { guard, timeoutMs, openContext, ...hooks },
    ),
  );
  return { ...key, signCount: result.used.signCount };
}

/** For an enrolment: the step that adds a passkey once the sign-in landed, and the key it made. */
export function enrolment(input: JobInput, hooks: Pick<RunHooks, "onStep">) {
  let made: VirtualPasskey | undefined;
  const afterSignIn =
    input.kind === "passkey_enrol"
      ? async (page: Page, watch: PageWatch, deadline: Deadline) => {
          made = await enrolPasskey(page, watch, { settingsUrl: input.enrol.settingsUrl }, deadline, hooks.onStep);
        }
      : undefined;
  return { afterSignIn, made: () => made };
}

/** Keeps the passkey an enrolment made, once it signed in (confirmPasskey). */
export async function keepEnrolled(
  run: BrowserRun,
  job: OpenedJob,
  key: VirtualPasskey | undefined,
  hooks: RunHooks,
): Promise<void> {
  const { db } = run.deps;
  // A sign-in that never reached the step that adds one (a flow that does not call it) is no enrolment.
  if (!key) throw new LoginFlowError("internal_error", "the sign-in ended without adding a passkey");
  const confirmed = await confirmPasskey(
    run,
    job,
    { loginUrl: job.loginUrl, identifier: job.credential.username },
    key,
    hooks,
  );
  if (!(await db.passkeys.add(job.orgId, job.credential.id, confirmed, job.id)))
    throw new LoginFlowError("internal_error", "the credential went away while its passkey was added");
}

/**
 * Signs in with the credential's passkeys (loaded into the page's authenticator; none of another site is
 * offered), typing nothing; the counter the site saw is kept for the next sign-in.
 */
export async function runPasskeyLogin(
  run: BrowserRun,
  job: OpenedJob,
  { onFailurePage, ...hooks }: RunHooks,
): Promise<LoginSuccess> {
  const { db, guard } = run.deps;
  const held = await db.passkeys.keys(job.orgId, job.credential.id);
  const result = await run.inPage(job, {}, onFailurePage, (page, timeoutMs, openContext) =>
    passkeyLogin(
      page,
      { loginUrl: job.loginUrl, identifier: job.credential.username, passkeys: held.map((h) => h.key) },
      { guard, timeoutMs, openContext, ...hooks },
    ),
  );
  const used = held.find((h) => h.key.credentialId === result.used.credentialId);
  if (used) {
    await db.passkeys
      .used(job.orgId, job.credential.id, used.id, { ...used.key, signCount: result.used.signCount })
      .catch((err: unknown) => {
        run.deps.log.warn({ jobId: job.id, err: String(err) }, "the passkey's sign counter was not kept");
      });
  }
  return { kind: "login", session: result.session, source: "detected", changedFlow: null };
}
