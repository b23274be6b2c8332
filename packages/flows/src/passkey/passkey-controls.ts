import type { Page } from "@authsvc/browser";
import { bundled } from "../page/in-page/bundled";
import { READ_PASSKEY_CONTROLS_SOURCE } from "../page/in-page/generated/read-passkey-controls-source";
import type { SelectorPath } from "../page/in-page/kit";
import { readPasskeyControls as readPasskeyControlsIn } from "../page/in-page/read-passkey-controls";
import { passkeyWordsOf, settingsWordsRanked } from "@authsvc/contracts";
import { readFrames } from "../page/scan-page";

/** What one frame shows of a site's passkey controls (see passkey-words.ts in @authsvc/contracts). */
export interface PasskeyControls {
  /** "Sign in with a passkey": the site's passkey sign-in. */
  signIn: SelectorPath | null;
  /** "Add a passkey": creates one for the signed-in account. */
  add: SelectorPath | null;
  /** Links toward the account's settings, most telling first: their targets, same-site only. */
  settings: string[];
}

const readPasskeyControlsInPage = bundled(readPasskeyControlsIn, READ_PASSKEY_CONTROLS_SOURCE);

const SIGN_IN = passkeyWordsOf("signIn");
const ADD = passkeyWordsOf("add");
const SETTINGS = settingsWordsRanked();

/** The passkey controls of every frame the page shows (frames that could not be read are left out). */
export async function readPasskeyControls(page: Page): Promise<Array<{ key: string; reading: PasskeyControls }>> {
  return readFrames(page, readPasskeyControlsInPage, SIGN_IN, ADD, SETTINGS);
}
