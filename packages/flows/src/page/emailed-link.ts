import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { inPage, type PageKit, type SelectorPath } from "./in-page/kit";
import type { PageWatch } from "./page-watch";
import { readFrames } from "./scan-page";
import { performStep } from "./steps";
import { watchPage } from "./watch-page";

/** The one button of a page that asks to press it before an emailed link counts. */
interface ConfirmButton {
  path: SelectorPath;
  text: string;
}

/**
 * Runs in the page: the button of a confirmation page — a page that speaks of confirming an email
 * address, an account or a sign-in, whose form has no field to fill (hidden ones at most) and one
 * visible control that confirms ("Confirm", "Verify", "Activate", "Yes, sign me in"). Django-allauth's
 * "Please confirm that … is an email address for user …", and many frameworks' activation and magic-link
 * pages, count the link only once it is pressed (a GET must not change anything; mail scanners open links).
 */
export const readConfirmButtonInPage = inPage(function readConfirmButtonInPage(kit: PageKit): ConfirmButton | null {
  const about =
    /confirm|verif|activat|sign.?in|log.?in|e-?mail|address|account|best[aä]tig|aktivier|anmeld|confirmer|v[ée]rifi|activer|connexion|confirmar|verificar|activar|iniciar|ativar|entrar|confermare|verifica|attiva|accedi|bevestig|activeer|inloggen/i;
  const yes =
    /^(confirm|verify|activate|yes|continue|sign ?in|log ?in|best[aä]tigen|aktivieren|weiter|anmelden|confirmer|v[ée]rifier|activer|continuer|se connecter|confirmar|verificar|activar|continuar|iniciar sesi[oó]n|ativar|entrar|conferma|verifica|attiva|continua|accedi|bevestigen|activeren|doorgaan|inloggen)\b/i;
  const pageText = (document.body?.innerText ?? "").slice(0, 3000);
  if (!about.test(pageText)) return null;
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
    if (controls.length !== 1 || !yes.test(kit.controlText(controls[0]!).trim())) continue;
    return { path: kit.pathOf(controls[0]!)!, text: kit.controlText(controls[0]!).trim().slice(0, 40) };
  }
  return null;
});

// How long the page may take to answer the press (its POST, a redirect) before the flow reads it anyway.
const PRESS_SETTLE_MS = 10_000;

/**
 * Opens a link that came by email (a confirmation, a sign-in or a set-password link) in the flow's page:
 * the one way every flow opens one. When the page it opens asks to press a button before the link counts,
 * it is pressed once and the site's answer awaited; the flow then reads that page as it would have read
 * the link's. The link is a credential until used: its address goes into no message or log.
 */
export async function openEmailedLink(
  page: Page,
  watch: PageWatch,
  link: string,
  deadline: Deadline,
  what: string,
  onStep?: (step: string) => void,
): Promise<void> {
  await watch.openEmailedLink(link, deadline, what);
  const found = (await readFrames(page, readConfirmButtonInPage).catch(() => [])).find((s) => s.reading !== null);
  if (!found?.reading) return;
  onStep?.(`press "${found.reading.text}" on the page the ${what} opened`);
  const before = page.url();
  const values = { identifier: "", password: "", additionalFields: {} };
  watch.resetVerdict();
  if (
    !(await performStep(
      page,
      { action: "click", purpose: "next", frame: found.key, path: found.reading.path },
      values,
    ).catch(() => false))
  )
    return;
  // Its answer: a new document (a POST's redirect), or the button gone (a script's).
  const pressed = async () =>
    watch.documentStatus !== 0 ||
    page.url() !== before ||
    !(await readFrames(page, readConfirmButtonInPage).catch(() => [])).some((s) => s.reading !== null);
  await watchPage(page, {
    deadline,
    ms: PRESS_SETTLE_MS,
    clock: "beforeLook",
    check: () => watch.check(),
    read: pressed,
    decide: (answered) => (answered ? { verdict: undefined } : "wait"),
    timeUp: () => undefined,
  });
}
