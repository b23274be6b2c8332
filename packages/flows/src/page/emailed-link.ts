import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { bundled } from "./in-page/bundled";
import { READ_CONFIRM_BUTTON_SOURCE } from "./in-page/generated/read-confirm-button-source";
import type { SelectorPath } from "./in-page/kit";
import { readConfirmButton } from "./in-page/read-confirm-button";
import type { PageWatch } from "./page-watch";
import { readFrames } from "./scan-page";
import { performStep } from "./steps";
import { watchPage } from "./watch-page";

/** The one button of a page that asks to press it before an emailed link counts. */
export interface ConfirmButton {
  path: SelectorPath;
  text: string;
}

/** The confirm button of the page an emailed link opened (see in-page/read-confirm-button.ts), as Puppeteer evaluates it. */
export const readConfirmButtonInPage = bundled(readConfirmButton, READ_CONFIRM_BUTTON_SOURCE);

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
