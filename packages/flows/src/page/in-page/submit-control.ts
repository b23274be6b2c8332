/** The control that sends the login form, and its "remember me" box. */
import type { FrameContext } from "./frame-context";
import { words } from "@authsvc/contracts/src/words/reader-words";

/** `anchor`: the password field, else the identifier field (no anchor: no form, no control). */
export function readSubmit(
  frame: FrameContext,
  anchor: Element | null,
): { submit: Element | null; remember: Element | null } {
  const { all, inputs, clickables } = frame;
  const { visible, text, controlText, describe, formOf, best } = frame.kit;
  let submit: Element | null = null;
  let remember: Element | null = null;
  if (anchor) {
    const form = formOf(anchor);
    const inScope = (el: Element) => (form ? formOf(el) === form || form.contains(el) : true);
    // Styled text that acts as the button: short words, a click handler or a pointer, nothing clickable inside.
    const styledText = all.filter(
      (el) =>
        !clickables.includes(el) &&
        !(el instanceof HTMLLabelElement) &&
        el.childElementCount <= 2 &&
        (el.textContent ?? "").length <= 60 &&
        inScope(el) &&
        words.submit.test(text(el)) &&
        !el.querySelector("a, button, input, select, textarea, [role=button]") &&
        (el.hasAttribute("onclick") || el.hasAttribute("tabindex") || getComputedStyle(el).cursor === "pointer") &&
        visible(el),
    );
    submit = best(
      [...clickables.filter((el) => visible(el) && inScope(el)), ...styledText],
      (el) => {
        const t = controlText(el);
        // ASP.NET names its buttons in id and name ("ctl00$Main$btnLogin") and may show only an image.
        const named = `${el.id} ${el.getAttribute("name") ?? ""}`;
        const postback = el instanceof HTMLAnchorElement && /^javascript:/i.test(el.getAttribute("href") ?? "");
        let s = 0;
        if (
          ["submit", "image"].includes((el as HTMLButtonElement).type) &&
          !(el instanceof HTMLAnchorElement) &&
          el.tagName !== "DIV"
        )
          s += 3;
        if (words.submit.test(t)) s += 4;
        else if (words.submit.test(named)) s += 3;
        if (words.notSubmit.test(t) || words.notSubmit.test(named)) s -= 8;
        if (el instanceof HTMLAnchorElement && !(el.getAttribute("role") === "button") && !postback) s -= 2;
        if (anchor.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) s += 1;
        else s -= 3;
        if (!form) {
          // Without a form, the control must sit near the fields, not in the page's header.
          const a = anchor.getBoundingClientRect();
          const b = el.getBoundingClientRect();
          if (Math.abs(b.top - a.top) > 400) s -= 6;
        }
        return s;
      },
      2,
    );
    const box = best(
      inputs.filter((el) => el.type === "checkbox" && !el.disabled && !el.checked && inScope(el)),
      (el) => (words.remember.test(describe(el)) ? 1 : 0),
      1,
    );
    // A styled checkbox hides its input and shows its label: a person clicks the label.
    const label = box && !visible(box) ? [...(box.labels ?? [])].find(visible) : undefined;
    remember = box && visible(box) ? box : (label ?? null);
  }
  return { submit, remember };
}
