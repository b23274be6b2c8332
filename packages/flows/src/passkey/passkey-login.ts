import { captureState, loadPasskeys, type Page, readPasskeys, type VirtualPasskey } from "@authsvc/browser";
import type { CapturedSession } from "@authsvc/contracts";
import { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { classifyOutcome } from "../login/classify-outcome";
import type { FlowOptions } from "../login/password-login";
import { PageWatch } from "../page/page-watch";
import { mergeSignals, scanPage } from "../page/scan-page";
import { secondLook } from "../page/second-look";
import { readJar, sessionStorageOf } from "../page/session-evidence";
import { snapshotSession } from "../page/session-snapshot";
import { performStep, type StepValues } from "../page/steps";
import { readPasskeyControls } from "./passkey-controls";
import { networkQuiet } from "../page/network-quiet";
import { type Next, watchPage } from "../page/watch-page";

// How long the login page has to show a way to sign in with a passkey.
const OFFER_WAIT_MS = 10_000;
// No password, no fields: a passkey sign-in types only the username.
const NOTHING: StepValues = { identifier: "", password: "", additionalFields: {} };
// Pages gone through before the passkey is asked for (the username step, a "Use a passkey" page).
const MAX_STEPS = 4;
// Before the flow chooses the passkey sign-in of a page the username led to, the page is let go quiet this
// long: one that asks for the account's passkey by itself (as many sites do after the username) has fetched
// its challenge and had the authenticator sign by then, or is still at it; a click meanwhile would run a
// second ceremony, a second sign-in on the site. Bounded by SETTLE_BOUND_MS for a page that never goes quiet.
const SETTLE_IDLE_MS = 1000;
const SETTLE_BOUND_MS = 5000;

export interface PasskeyLoginInput {
  loginUrl: string;
  /** The account's username or email, for a site that asks for it before its passkey; never a password. */
  identifier: string;
  /** The credential's passkeys: those of the login page's site are loaded into the page's authenticator. */
  passkeys: VirtualPasskey[];
}

export interface PasskeyLoginResult {
  session: CapturedSession;
  /** The passkey the site asked for, with its sign counter after the sign-in (to store). */
  used: VirtualPasskey;
  /** The page the passkey sign-in started on. */
  loginPage: string;
}

/** Whether a passkey of relying party `rpId` is this host's (the host is the RP id or under it). */
export const passkeyFits = (host: string, rpId: string) => host === rpId || host.endsWith(`.${rpId}`);

/**
 * Signs in with a stored passkey, typing no password: the credential's passkeys of this site go into the
 * page's virtual authenticator; on the login page, its passkey sign-in is chosen ("Sign in with a
 * passkey"), or the username is given first and the passkey the next page asks for is given. The verdict
 * is earned as a password login's (classifyOutcome): a new session the page shows, never a page that only
 * looks signed in. `passkey_not_offered` when the credential has no passkey of this site or the page asks
 * for a password with no passkey way in; `passkey_rejected` when the site refused the passkey's answer.
 */
export async function passkeyLogin(
  page: Page,
  input: PasskeyLoginInput,
  options: FlowOptions,
): Promise<PasskeyLoginResult> {
  const step = options.onStep ?? (() => undefined);
  const deadline = new Deadline(options.timeoutMs);
  const host = new URL(input.loginUrl).hostname;
  const mine = input.passkeys.filter((p) => passkeyFits(host, p.rpId));
  if (mine.length === 0) throw new LoginFlowError("passkey_not_offered", `the credential holds no passkey of ${host}`);
  await loadPasskeys(page, mine);
  const counters = new Map(mine.map((p) => [p.credentialId, p.signCount]));
  // The passkey the site had the authenticator sign with: its counter moved.
  const used = async () =>
    (await readPasskeys(page)).find(
      (p) => counters.has(p.credentialId) && p.signCount !== counters.get(p.credentialId),
    );

  const watch = await PageWatch.attach(page, options.guard, input.loginUrl);
  const context = page.browserContext();
  // The state before the site's page ran: a login page may sign in by itself as it loads (its username
  // field's autofill request, which the authenticator answers at once), before the flow first looks at it.
  const beforeOpen = await snapshotSession(context, page, input.identifier);
  step("open login page");
  await watch.open(input.loginUrl, deadline, "login page");
  const earlier = await readJar(context).catch(() => null);
  let before: Awaited<ReturnType<typeof snapshotSession>> | null = null;
  let identified = false;
  // Whether the page the username led to is still to be let go quiet before its passkey sign-in is chosen.
  let settle = false;
  let steps = 0;
  await watchPage(page, {
    deadline,
    ms: OFFER_WAIT_MS,
    check: () => watch.check(),
    // A page that asked for the passkey by itself (after the username, or as it loaded) was answered: the
    // sign-in is judged against the state before it, the one before the page ran when it came first.
    read: async () =>
      (await used())
        ? null
        : // The passkey controls by their words; the form (a username-first step, a password) as a login reads it.
          Promise.all([readPasskeyControls(page), scanPage(page, input.identifier)]),
    decide: async (reading): Promise<Next<void>> => {
      if (!reading) {
        before ??= beforeOpen;
        return { verdict: undefined };
      }
      const [frames, scans] = reading;
      const signIn = frames.find((f) => f.reading.signIn);
      const field = scans.find((s) => s.reading.identifier && !s.reading.password);
      before ??= await snapshotSession(context, page, input.identifier, { earlier, reissued: watch.reissuedCookies() });
      if (signIn && settle) {
        settle = false;
        await networkQuiet(page, {
          idleMs: SETTLE_IDLE_MS,
          timeoutMs: Math.max(1, Math.min(SETTLE_BOUND_MS, deadline.remaining())),
        });
        return "again";
      }
      if (signIn) {
        step("choose sign-in with a passkey");
        watch.resetVerdict();
        const chosen = await performStep(
          page,
          { action: "click", purpose: "next", frame: signIn.key, path: signIn.reading.signIn! },
          NOTHING,
        );
        return chosen ? { verdict: undefined } : "again";
      }
      if (field && !identified && input.identifier && steps < MAX_STEPS) {
        step("type identifier");
        identified = true;
        settle = true;
        steps++;
        watch.resetVerdict();
        const { key, reading } = field;
        const values = { ...NOTHING, identifier: input.identifier };
        if (!reading.identifierFilled)
          await performStep(
            page,
            { action: "type", value: "identifier", frame: key, path: reading.identifier! },
            values,
          );
        const sent =
          reading.submit &&
          (await performStep(page, { action: "click", purpose: "next", frame: key, path: reading.submit }, values));
        if (!sent)
          await performStep(page, { action: "enter", purpose: "next", frame: key, path: reading.identifier! }, values);
        return "again";
      }
      return "wait";
    },
    timeUp: (reading) => {
      const password = !!reading && mergeSignals(reading[1]).passwordShown;
      throw new LoginFlowError(
        "passkey_not_offered",
        password
          ? "the login page asks for the password and offers no passkey sign-in"
          : "the login page offers no passkey sign-in",
      );
    },
  });
  watch.check();

  step("read verdict");
  options.onMilestone?.("verifying");
  const outcome = await classifyOutcome(
    page,
    before ?? (await snapshotSession(context, page, input.identifier)),
    deadline,
    {
      identifier: input.identifier,
      submitted: null,
      dialogs: () => watch.dialogs,
      documentStatus: () => watch.documentStatus,
      navigation: watch,
      movedAway: () => watch.movedAway(input.loginUrl),
      confirmSession: async (onAStep) =>
        secondLook({
          context,
          loginUrl: input.loginUrl,
          endedOn: onAStep ? null : page.url(),
          openContext: options.openContext,
          guard: options.guard,
          deadline,
          sessionStorage: await sessionStorageOf(page),
          onStep: step,
        }),
      onStep: step,
    },
  );
  watch.check();
  const signed = await used();
  if (outcome.kind === "failure") {
    // The authenticator answered and the site said no: it refused that passkey. Without its word (the form
    // shown again, no message), nothing tells a refusal from a page that never answered: that stays unknown.
    if (signed && outcome.code === "invalid_credentials")
      throw new LoginFlowError("passkey_rejected", `the site refused the passkey: ${outcome.message}`);
    if (signed) throw new LoginFlowError(outcome.code, outcome.message);
    throw new LoginFlowError(
      outcome.code === "timeout" ? "timeout" : "passkey_not_offered",
      `the site never asked for the passkey: ${outcome.message}`,
    );
  }
  // A session the page shows, yet no passkey of ours signed: not a sign-in this flow earned.
  if (!signed)
    throw new LoginFlowError("login_unconfirmed", "the page looks signed in, but the site never asked for the passkey");
  step("capture session");
  const session = await captureState(context, page, watch.visited, watch.documentOrigins);
  return { session, used: signed, loginPage: input.loginUrl };
}
