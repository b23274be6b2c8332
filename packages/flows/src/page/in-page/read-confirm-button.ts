import { CONFIRM_BUTTON, CONFIRM_PAGE } from "@authsvc/contracts/src/words/emailed-link-words";
import type { ConfirmButton } from "../emailed-link";
import { pageKit } from "./kit";

/**
 * Runs in the page (bundled with its imports, see bundle.ts): the button of a confirmation page — a page
 * that speaks of confirming an email address, an account or a sign-in, whose form has no field to fill
 * (hidden ones at most) and one visible control that confirms ("Confirm", "Verify", "Activate", "Yes, sign me in"). Django-allauth's
 * "Please confirm that … is an email address for user …", and many frameworks' activation and magic-link
 * pages, count the link only once it is pressed (a GET must not change anything; mail scanners open links).
 */
export function readConfirmButton(): ConfirmButton | null {
  const kit = pageKit();
  const pageText = (document.body?.innerText ?? "").slice(0, 3000);
  if (!CONFIRM_PAGE.test(pageText)) return null;
  const all = kit.elements();
  for (const form of all.filter((el): el is HTMLFormElement => el instanceof HTMLFormElement && kit.visible(el))) {
    const fields = [...form.elements].filter(
      (el) =>
        (el instanceof HTMLInputElement && !["hidden", "submit", "button", "image"].includes(el.type)) ||
        el instanceof HTMLSelectElement ||
        el instanceof HTMLTextAreaElement,
    );
    if (fields.some((el) => kit.visible(el))) continue;
    const controls = all.filter(
      (el) => kit.isControl(el, false) && !(el instanceof HTMLAnchorElement) && form.contains(el) && kit.visible(el),
    );
    if (controls.length !== 1 || !CONFIRM_BUTTON.test(kit.controlText(controls[0]!).trim())) continue;
    return { path: kit.pathOf(controls[0]!)!, text: kit.controlText(controls[0]!).trim().slice(0, 40) };
  }
  return null;
}
