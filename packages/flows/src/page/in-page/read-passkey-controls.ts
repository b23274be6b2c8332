import type { PasskeyControls } from "../../passkey/passkey-controls";
import { pageKit } from "./kit";

/** Runs in the page (bundled with its imports, see bundle.ts): a frame's passkey controls (see passkey-controls.ts). */
export function readPasskeyControls(signInWords: string, addWords: string, settingsWords: string[]): PasskeyControls {
  const kit = pageKit();
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
}
