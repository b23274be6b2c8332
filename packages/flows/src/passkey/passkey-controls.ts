import type { Page } from "@authsvc/browser";
import { inPage, type SelectorPath } from "../page/in-page/kit";
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

const readPasskeyControlsInPage = inPage(function readPasskeyControlsInPage(
  kit,
  signInWords: string,
  addWords: string,
  settingsWords: string[],
): PasskeyControls {
  const controls = kit
    .elements()
    .filter((el) => kit.visible(el))
    .filter((el) => kit.isControl(el) && !(el as HTMLButtonElement).disabled);
  const signIn = new RegExp(signInWords, "i");
  const add = new RegExp(addWords, "i");
  const pick = (re: RegExp) =>
    kit.best(controls, (el) => (kit.controlText(el).length <= 60 && re.test(kit.controlText(el)) ? 1 : 0), 1);
  const addControl = pick(add);
  const signInControl = addControl ? null : pick(signIn);
  const ranked = settingsWords.map((w) => new RegExp(w, "i"));
  const links: Array<{ href: string; rank: number }> = [];
  for (const el of controls) {
    if (!(el instanceof HTMLAnchorElement) || !el.href || new URL(el.href, location.href).origin !== location.origin)
      continue;
    const t = kit.controlText(el, false);
    if (t.length === 0 || t.length > 40) continue;
    const rank = ranked.findIndex((re) => re.test(t));
    if (rank >= 0) links.push({ href: new URL(el.href, location.href).toString(), rank });
  }
  links.sort((a, b) => a.rank - b.rank);
  return {
    signIn: signInControl ? kit.pathOf(signInControl) : null,
    add: addControl ? kit.pathOf(addControl) : null,
    settings: [...new Set(links.map((l) => l.href))],
  };
});

const SIGN_IN = passkeyWordsOf("signIn");
const ADD = passkeyWordsOf("add");
const SETTINGS = settingsWordsRanked();

/** The passkey controls of every frame the page shows (frames that could not be read are left out). */
export async function readPasskeyControls(page: Page): Promise<Array<{ key: string; reading: PasskeyControls }>> {
  return readFrames(page, readPasskeyControlsInPage, SIGN_IN, ADD, SETTINGS);
}
