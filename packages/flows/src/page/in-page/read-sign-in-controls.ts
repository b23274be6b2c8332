import type { SignInControl } from "../../oauth/read-oauth-page";
import { pageKit } from "./kit";

/** Every shown control (link, button, role=button) with a short label: the candidates for the provider's button. */
export function readSignInControls(): SignInControl[] {
  const kit = pageKit();
  const found: SignInControl[] = [];
  for (const el of kit.elements()) {
    if (!kit.isControl(el) || !kit.visible(el)) continue;
    const text = kit.controlText(el);
    if (text.length === 0 || text.length > 120) continue;
    let target = "";
    if (el instanceof HTMLAnchorElement) target = el.href;
    else {
      const form = kit.formOf(el) as HTMLFormElement | null;
      if (form && form instanceof HTMLFormElement) target = form.action;
    }
    found.push({ text, target: /^https?:/i.test(target) ? target : "", path: kit.pathOf(el) });
    if (found.length >= 200) break;
  }
  return found;
}
