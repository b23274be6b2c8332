/**
 * What the steps after the password share: the control that sends a step's field, what a control shows,
 * and the words a person reads as a step's question.
 */
import type { FrameContext } from "./frame-context";
import { words } from "@authsvc/contracts/src/words/reader-words";

// The controls that send a step's field: its form's, by their words; never one that leaves the step.
export function sendsStep(frame: FrameContext, field: Element): Element | null {
  const { clickables } = frame;
  const { visible, controlText, formOf, best } = frame.kit;
  const form = formOf(field);
  return best(
    clickables.filter((el) => visible(el) && (!form || form.contains(el))),
    (el) => {
      const t = controlText(el);
      let s = (el as HTMLButtonElement).type === "submit" ? 2 : 0;
      if (words.submit.test(t) || /verify|confirm|submit|best[aä]tig|v[ée]rifi|verific|bevestig|conferma/i.test(t))
        s += 3;
      if (words.notSubmit.test(t) || /resend|another|erneut|renvoyer|reenviar|reinviar|opnieuw/i.test(t)) s -= 8;
      return s;
    },
    2,
  );
}

// What a control shows (a button's value attribute is not shown).
export const shownLabel = (frame: FrameContext, el: Element): string =>
  ((el as HTMLElement).innerText ?? "").replace(/\s+/g, " ").trim() || frame.kit.controlText(el).trim();

// The nearest block around an element that says the step's words: what a person reads as its question.
export function wordsAround(frame: FrameContext, el: Element, pattern: RegExp): string {
  const { text } = frame.kit;
  for (let n: Element | null = el, up = 0; n && up < 8; n = n.parentElement, up++) {
    if (pattern.test(text(n))) return text(n);
  }
  return frame.contextText(el);
}
// A heading or short block that says the step's words, and the block it heads (what a person reads).
export const saying = (frame: FrameContext, pattern: RegExp): Element | undefined =>
  frame.all.find(
    (el) =>
      /^(H[1-6]|LEGEND|P|LABEL|DIV|SPAN)$/.test(el.tagName) &&
      el.childElementCount <= 2 &&
      frame.kit.visible(el) &&
      pattern.test(frame.kit.text(el)),
  );
export function headed(frame: FrameContext, heading: Element): string {
  const { text } = frame.kit;
  for (let n = heading.parentElement; n; n = n.parentElement) if (text(n).length > text(heading).length) return text(n);
  return text(heading);
}
