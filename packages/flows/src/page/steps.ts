import { type ElementHandle, type Page, typeKeys } from "@authsvc/browser";
import type { SelectorPath } from "./read-page";
import { findFrame, resolveElement } from "./scan-page";

/**
 * One thing the flow did on the page. Steps name elements by frame and selector path and never hold a
 * value: a learned flow is a list of them, stored and replayed without any secret.
 */
export type FlowStep =
  | { action: "click"; purpose: (typeof STEP_PURPOSES.click)[number]; frame: string; path: SelectorPath }
  | { action: "type"; value: (typeof STEP_PURPOSES.type)[number]; frame: string; path: SelectorPath }
  | { action: "enter"; purpose: (typeof STEP_PURPOSES.enter)[number]; frame: string; path: SelectorPath }
  | { action: "extra"; key: string; frame: string; path: SelectorPath }
  | { action: "check"; purpose: (typeof STEP_PURPOSES.check)[number]; frame: string; path: SelectorPath };

/** What each kind of step is for: the one list the step type and a stored flow's check are made from. */
export const STEP_PURPOSES = {
  click: ["consent", "opener", "method", "captcha", "next", "submit"],
  type: ["identifier", "password", "code"],
  enter: ["next", "submit"],
  check: ["remember", "consent"],
} as const;

export interface StepValues {
  identifier: string;
  password: string;
  additionalFields: Record<string, string | number | boolean>;
  /** A fresh one-time code (from the request's TOTP secret), for a code field in the password's own form. */
  code?: () => Promise<string>;
}

/** Whether a step hands the password to the site. */
export const submitsPassword = (step: FlowStep) =>
  (step.action === "click" || step.action === "enter") && step.purpose === "submit";

/**
 * Runs in the page: whether an element can take the step. It must be shown and usable the way the reader
 * demands of fields (a password field revealed later is not there yet), and of the right kind: a stored
 * path that now names another element (the page changed) never gets the password typed into it.
 */
function fitsStepInPage(el: Element, action: FlowStep["action"], value: string): boolean {
  const r = el.getBoundingClientRect();
  if (r.width < 4 || r.height < 4 || r.right + scrollX <= 0 || r.bottom + scrollY <= 0) return false;
  if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
  const input = el as HTMLInputElement;
  const field = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement;
  switch (action) {
    case "type":
      // Read-only and empty: a field that becomes writable on focus (the click into it does that).
      if (!field || input.disabled || (input.readOnly && input.value !== "")) return false;
      if (value !== "password") return input.type !== "password";
      return (
        input.type === "password" ||
        /current-password/.test(input.autocomplete) ||
        /pass|pwd|kennwort|passwort|contrase|mot.?de.?passe|senha|wachtwoord/i.test(`${input.name} ${input.id}`)
      );
    case "enter":
      return field;
    case "extra":
      return (field || el instanceof HTMLSelectElement) && !input.disabled;
    case "check": {
      const box = el instanceof HTMLLabelElement ? el.control : el;
      return box instanceof HTMLInputElement && box.type === "checkbox" && !box.disabled;
    }
    case "click":
      return !(el as HTMLButtonElement).disabled;
  }
}

/** Where a click on an element lands, in its frame's viewport; `covered`: something else is on top there. */
interface ClickPoint {
  x: number;
  y: number;
  covered: boolean;
}

/**
 * Runs in the page: the middle of the element's first box in view, cut to the view, and whether a click
 * there would land on something else (an overlay). An element not wholly in view, or whose point shows
 * something else (a box scrolled out of its container), is first scrolled to the middle of the view, as
 * Puppeteer's click does. Null when no box of it is in view.
 */
function clickPointInPage(el: Element): ClickPoint | null {
  const pointOf = (): ClickPoint | null => {
    for (const r of el.getClientRects()) {
      const left = Math.max(r.left, 0);
      const top = Math.max(r.top, 0);
      const width = Math.min(r.right, innerWidth) - left;
      const height = Math.min(r.bottom, innerHeight) - top;
      if (width < 1 || height < 1) continue;
      const x = left + width / 2;
      const y = top + height / 2;
      const hit = (el.getRootNode() as Document | ShadowRoot).elementFromPoint(x, y);
      return { x, y, covered: !!hit && hit !== el && !el.contains(hit) && !hit.contains(el) };
    }
    return null;
  };
  const r = el.getBoundingClientRect();
  if (r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth) {
    const point = pointOf();
    if (point && !point.covered) return point;
  }
  el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  return pointOf();
}

/**
 * Clicks an element as Puppeteer's click does (into view, then the mouse at the middle of its first box
 * in view), with its point read in one evaluate: Puppeteer's first asks an IntersectionObserver, which
 * answers on the page's next frame (about 11 of its 15 ms). An element of another frame than the main
 * one, or with no box in view, takes Puppeteer's own click (its point adds the frames' offsets; its
 * errors name what is wrong).
 */
async function clickOn(el: ElementHandle<Element>, point: ClickPoint | null): Promise<void> {
  const page = el.frame.page();
  if (point && el.frame === page.mainFrame()) await page.mouse.click(point.x, point.y);
  else await el.click();
}

/** A click; an element of another frame goes straight to Puppeteer's (its point would go unused). */
const click = async (el: ElementHandle<Element>) =>
  el.frame === el.frame.page().mainFrame() ? clickOn(el, await el.evaluate(clickPointInPage)) : el.click();

/** Types like a person: a click into the field, then real key events, so controlled inputs see each one. */
async function typeInto(field: ElementHandle<Element>, text: string): Promise<void> {
  const point = await field.evaluate(clickPointInPage);
  // A field under an overlay we could not dismiss still takes focus; a click would land on the overlay.
  if (point?.covered) await field.focus();
  else await clickOn(field, point);
  // The keys go to what has focus: the field, again, if the click's handler moved it (as Puppeteer's own
  // type does), with a value already there selected so that a Backspace clears it.
  const filled = await field.evaluate((el) => {
    (el as HTMLElement).focus();
    if ((el as HTMLInputElement).value === "") return false;
    (el as HTMLInputElement).select();
    return true;
  });
  if (filled) await field.press("Backspace");
  await typeKeys(field.frame.page(), text);
}

async function fillExtra(field: ElementHandle<Element>, raw: string | number | boolean): Promise<void> {
  const kind = await field.evaluate((el) =>
    el instanceof HTMLSelectElement ? "select" : (el as HTMLInputElement).type,
  );
  if (kind === "select") {
    const value = await field.evaluate((el, wanted) => {
      const options = [...(el as HTMLSelectElement).options];
      const match = (o: HTMLOptionElement) =>
        o.value === wanted || o.text.trim().toLowerCase() === wanted.toLowerCase();
      return options.find(match)?.value ?? null;
    }, String(raw));
    if (value !== null) await (field as ElementHandle<HTMLSelectElement>).select(value);
    return;
  }
  if (kind === "checkbox" || kind === "radio") {
    const want = raw === true || raw === "true" || raw === 1 || raw === "on";
    const checked = await field.evaluate((el) => (el as HTMLInputElement).checked);
    if (checked !== want) await click(field);
    return;
  }
  await typeInto(field, String(raw));
}

/**
 * Types a one-time code into its field, or one character per box. Not a FlowStep: codes are never
 * part of a learned flow.
 */
export async function typeCode(page: Page, frameKey: string, fields: SelectorPath[], code: string): Promise<boolean> {
  const frame = findFrame(page, frameKey);
  if (!frame) return false;
  const parts = fields.length === 1 ? [code] : [...code];
  for (const [i, path] of fields.entries()) {
    const el = await resolveElement(frame, path);
    if (!el) return false;
    try {
      await typeInto(el, parts[i] ?? "");
    } finally {
      await el.dispose().catch(() => undefined);
    }
  }
  return true;
}

/** Types a value into one field: signup fields hold values (name, email, a variant username) no FlowStep names. */
export const typeText = (page: Page, frameKey: string, path: SelectorPath, text: string) =>
  typeCode(page, frameKey, [path], text);

/**
 * Does one step. False when its element is not on the page (a learned flow that no longer fits); faults
 * of the page itself (closed, navigated away mid-click) propagate. `beforeAct` runs once the element is
 * found, just before acting on it.
 */
export async function performStep(
  page: Page,
  step: FlowStep,
  values: StepValues,
  beforeAct?: () => Promise<void>,
): Promise<boolean> {
  const frame = findFrame(page, step.frame);
  if (!frame) return false;
  const el = await resolveElement(frame, step.path);
  if (!el) return false;
  try {
    if (step.action === "extra" && !(step.key in values.additionalFields)) return false;
    if (step.action === "type" && step.value === "code" && !values.code) return false;
    if (!(await el.evaluate(fitsStepInPage, step.action, step.action === "type" ? step.value : ""))) return false;
    await beforeAct?.();
    switch (step.action) {
      case "click":
        await click(el);
        break;
      case "type":
        await typeInto(
          el,
          step.value === "code"
            ? await values.code!()
            : step.value === "identifier"
              ? values.identifier
              : values.password,
        );
        break;
      case "enter":
        await el.press("Enter");
        break;
      case "extra":
        await fillExtra(el, values.additionalFields[step.key]!);
        break;
      case "check":
        // The box itself, or the label of a styled one.
        if (!(await el.evaluate((e) => ((e instanceof HTMLLabelElement ? e.control : e) as HTMLInputElement).checked)))
          await click(el);
        break;
    }
    return true;
  } finally {
    await el.dispose().catch(() => undefined);
  }
}

/**
 * Whether a field the flow typed in is still there and holds a value: not once its form went out (a new
 * document, a form cleared). Null while that cannot be told (a document being replaced or parsed).
 */
export async function fieldHolds(page: Page, field: { frame: string; path: SelectorPath }): Promise<boolean | null> {
  const frame = findFrame(page, field.frame);
  if (!frame) return false;
  const parsed = await frame.evaluate(() => document.readyState !== "loading").catch(() => null);
  if (!parsed) return null;
  const el = await resolveElement(frame, field.path).catch(() => null);
  if (!el) return false;
  try {
    return await el.evaluate((e) => e.isConnected && (e as HTMLInputElement).value !== "");
  } catch {
    return null;
  } finally {
    await el.dispose().catch(() => undefined);
  }
}

/**
 * Whether the field a typing step filled still holds `text`: a page script may have moved the focus while
 * the keys went out (WordPress focuses and selects its username field a moment after the page loads), or
 * cleared or rewritten the field. A site's own tidying (trimmed, other letter case) counts as held. Null
 * when the field is not there to ask (a field of a page left behind). The value is compared in the page
 * and never returned.
 */
export async function fieldKeeps(
  page: Page,
  step: { frame: string; path: SelectorPath },
  text: string,
): Promise<boolean | null> {
  const frame = findFrame(page, step.frame);
  if (!frame) return null;
  const el = await resolveElement(frame, step.path).catch(() => null);
  if (!el) return null;
  try {
    return await el.evaluate((e, want) => {
      // A choice (a select's option, a box) holds no typed text to compare.
      if (
        !e.isConnected ||
        !(e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement) ||
        /^(checkbox|radio|file)$/.test((e as HTMLInputElement).type)
      )
        return null;
      const value = String((e as HTMLInputElement).value ?? "");
      return value === want || value.trim().toLowerCase() === want.trim().toLowerCase();
    }, text);
  } catch {
    return null;
  } finally {
    await el.dispose().catch(() => undefined);
  }
}
