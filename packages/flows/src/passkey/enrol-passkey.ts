import { type HTTPResponse, type Page, readPasskeys, type VirtualPasskey } from "@authsvc/browser";
import { type Deadline, sleep } from "../deadline";
import { LoginFlowError } from "../flow-error";
import type { PageWatch } from "../page/page-watch";
import { mergeSignals, scanPage } from "../page/scan-page";
import { performStep } from "../page/steps";
import { readPasskeyControls } from "./passkey-controls";
import { networkQuiet } from "../page/network-quiet";

// Settings pages looked through for "Add a passkey" before the site is taken to offer none.
const MAX_SETTINGS_PAGES = 5;
// How long the page has to ask the browser for the new passkey once "Add a passkey" was clicked.
const CREATE_WAIT_MS = 15_000;
// How long the site has to take the new passkey (its server checks what the browser made) and say so.
const ACCEPT_WAIT_MS = 10_000;
// Words of a site that turned the new passkey down or could not add it.
// Words of failure only: a neutral notice ("Sie brauchen Ihr Passwort nicht mehr", "No errors") is no refusal.
const NOT_ADDED =
  /could ?n.t|could not|cannot|can.t|unable to|failed|not (been )?(added|created|saved|registered)|nicht (hinzugefügt|erstellt|gespeichert)|fehlgeschlagen|impossible d|échou|no se pudo|não foi possível|non è stato possibile|niet gelukt|nie uda[lł]o|できませんでした|失敗|无法|失败|실패|не удалось|başarısız/i;

export interface EnrolPasskeyInput {
  /** Where the site keeps the account's passkeys, when the caller knows it; else it is found by its links. */
  settingsUrl?: string;
}

/**
 * Adds a passkey to the account the page is signed in to: opens the settings page (the caller's, or found
 * by the words of its links, a few pages deep), clicks "Add a passkey", and lets the page's virtual
 * authenticator make it (user verification satisfied). The passkey counts once the authenticator holds a
 * new one for the site and the site took it: no request of the page failed after it was made and no new
 * message says it was not added. Returns it as the authenticator holds it (its private key included: the
 * caller stores it encrypted). `passkey_not_offered` when no settings page offers to add one;
 * `passkey_rejected` when the site turned it down.
 */
export async function enrolPasskey(
  page: Page,
  watch: PageWatch,
  input: EnrolPasskeyInput,
  deadline: Deadline,
  onStep: (step: string) => void = () => undefined,
): Promise<VirtualPasskey> {
  const held = new Set((await readPasskeys(page)).map((p) => p.credentialId));
  const add = await findAddControl(page, watch, input, deadline, onStep);

  // What the page's own requests answered from here on: a site that refuses the new passkey says so there.
  const failed: string[] = [];
  const onResponse = (response: HTTPResponse) => {
    const request = response.request();
    if (
      request.method() !== "GET" &&
      response.status() >= 400 &&
      ["xhr", "fetch", "document"].includes(request.resourceType())
    )
      failed.push(`${request.method()} ${new URL(response.url()).pathname} answered ${response.status()}`);
  };
  const before = mergeSignals(await scanPage(page, "").catch(() => Object.assign([], { unreadable: 1 }))).messages;
  page.on("response", onResponse);
  try {
    onStep("add a passkey");
    const clicked = await performStep(
      page,
      { action: "click", purpose: "next", frame: add.key, path: add.path },
      { identifier: "", password: "", additionalFields: {} },
    );
    if (!clicked)
      throw new LoginFlowError(
        "passkey_not_offered",
        'the site\'s "Add a passkey" control went away before it could be clicked',
      );

    const rpHost = new URL(page.url()).hostname;
    let made: VirtualPasskey | undefined;
    const until = Date.now() + Math.min(CREATE_WAIT_MS, deadline.remaining());
    while (!made && Date.now() < until) {
      made = (await readPasskeys(page)).find(
        (p) => !held.has(p.credentialId) && (rpHost === p.rpId || rpHost.endsWith(`.${p.rpId}`)),
      );
      if (!made) await sleep(100);
    }
    if (!made)
      throw new LoginFlowError(
        "passkey_rejected",
        `the site's "Add a passkey" asked the browser for no passkey of ${rpHost}`,
      );

    onStep("wait for the site to take the passkey");
    await networkQuiet(page, { idleMs: 500, timeoutMs: Math.max(1, Math.min(ACCEPT_WAIT_MS, deadline.remaining())) });
    if (failed.length > 0)
      throw new LoginFlowError("passkey_rejected", `the site did not take the new passkey: ${failed[0]}`);
    const fresh = mergeSignals(
      await scanPage(page, "").catch(() => Object.assign([], { unreadable: 1 })),
    ).messages.filter((m) => !before.includes(m));
    const refusal = fresh.find((m) => NOT_ADDED.test(m));
    if (refusal) throw new LoginFlowError("passkey_rejected", `the site did not take the new passkey: ${refusal}`);
    return made;
  } finally {
    page.off("response", onResponse);
  }
}

/** The "Add a passkey" control: on the caller's settings page, or on this page or the settings pages its links lead to. */
async function findAddControl(
  page: Page,
  watch: PageWatch,
  input: EnrolPasskeyInput,
  deadline: Deadline,
  onStep: (step: string) => void,
): Promise<{ key: string; path: string[] }> {
  const queue: string[] = [];
  const seen = new Set<string>();
  if (input.settingsUrl) {
    onStep("open the settings page");
    await watch.open(input.settingsUrl, deadline, "settings page");
  }
  seen.add(page.url());
  for (let opened = 0; ;) {
    await networkQuiet(page, { idleMs: 250, timeoutMs: Math.max(1, Math.min(2000, deadline.remaining())) });
    const frames = await readPasskeyControls(page);
    const add = frames.find((f) => f.reading.add);
    if (add) return { key: add.key, path: add.reading.add! };
    // The caller's settings page is where the passkeys are, or nowhere.
    if (!input.settingsUrl)
      for (const f of frames)
        for (const href of f.reading.settings)
          if (!seen.has(href)) {
            queue.push(href);
            seen.add(href);
          }
    const next = queue.shift();
    if (!next || opened >= MAX_SETTINGS_PAGES || deadline.remaining() <= 0) {
      throw new LoginFlowError(
        "passkey_not_offered",
        input.settingsUrl
          ? `the settings page ${new URL(input.settingsUrl).pathname} offers no way to add a passkey`
          : `no settings page the site links to offers a way to add a passkey (${opened} looked at)`,
      );
    }
    opened++;
    onStep("open a settings page");
    await watch.open(next, deadline, "settings page");
  }
}
