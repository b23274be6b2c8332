import { pageKit } from "./kit";
import type { Note } from "../read-notes";

/**
 * The text blocks a person reads on the page, whatever their markup (a `<p class="flash">`, a `<td>`, a
 * `<span>` under a field, text put into the form): a site's refusal is often nothing more. The page's
 * furniture — navigation, banners, footers, links, buttons, labels, controls — is left out. Runs inside
 * the page, bundled with its imports (see bundle.ts).
 */
export function readNotes(): Note[] {
  const kit = pageKit();
  const MAX_NOTES = 1000;
  // A form's surroundings count as "near" up to this much text: the whole of a small login page, or the
  // box around the form on a long one.
  const NEAR_CHARS = 4000;
  const SKIP =
    "script, style, noscript, template, svg, nav, footer, a, button, label, select, option, textarea, input, [role=navigation], [role=contentinfo], [role=banner], [role=button], [role=link], [role=menu], [role=menubar], [role=tab], [aria-hidden=true]";
  const PLACES = "main, [role=main], dialog, [role=dialog], [role=alert], [aria-live]";

  const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null);
  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (el: Element) => {
    let s = styles.get(el);
    if (!s) styles.set(el, (s = getComputedStyle(el)));
    return s;
  };
  const skipped = new Map<Element, boolean>();
  const isSkipped = (el: Element | null): boolean => {
    if (!el) return false;
    const known = skipped.get(el);
    if (known !== undefined) return known;
    // A header inside the content (a card's title bar) is content; the page's own banner is not.
    const banner =
      el.tagName === "HEADER" && !parentOf(el)?.closest("main, article, section, form, dialog, [role=dialog]");
    const result = el.matches(SKIP) || banner || isSkipped(parentOf(el));
    skipped.set(el, result);
    return result;
  };
  const blockOf = (el: Element): Element => {
    for (let n: Element | null = el; n; n = parentOf(n)) {
      if (!["inline", "contents"].includes(style(n).display)) return n;
    }
    return el;
  };

  const roots = kit.roots();
  const texts: Text[] = [];
  for (const root of roots) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (/\S/.test(n.nodeValue ?? "")) texts.push(n as Text);
  }

  const blocks = new Map<Element, string[]>();
  for (const node of texts) {
    const parent = node.parentElement;
    if (!parent || isSkipped(parent) || !parent.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
      continue;
    const block = blockOf(parent);
    const r = block.getBoundingClientRect();
    if (r.width < 4 || r.height < 4) continue; // visually hidden (screen-reader only)
    const parts = blocks.get(block) ?? [];
    parts.push(node.nodeValue!);
    blocks.set(block, parts);
    if (blocks.size >= MAX_NOTES) break;
  }

  // The login field this frame shows (the password, else an email or username field, a code's field, or
  // the one text field of a step that asks for nothing else), and the region of the page around it.
  const inputs = roots
    .flatMap((root) => [...root.querySelectorAll("input")])
    .filter((el) => el.checkVisibility() && el.getBoundingClientRect().width > 0);
  const typed = inputs.filter((el) => ["text", "email", "tel", "number"].includes(el.type));
  const field =
    inputs.find((el) => el.type === "password") ??
    inputs.find((el) => el.type === "email" || /\b(username|email|one-time-code)\b/.test(el.autocomplete)) ??
    (typed.length === 1 ? typed[0]! : null);
  const textOf = (el: Element) => ((el as HTMLElement).innerText ?? "").length;
  let region: Element | null = field ?? (document.body && textOf(document.body) <= NEAR_CHARS ? document.body : null);
  for (let up = region && parentOf(region); up && textOf(up) <= NEAR_CHARS; up = parentOf(up)) region = up;
  const near = (el: Element): boolean => {
    for (let n: Element | null = el; n; n = parentOf(n)) {
      if (n === region || n.matches(PLACES) || ["fixed", "sticky"].includes(style(n).position)) return true;
    }
    return false;
  };

  return [...blocks]
    .map(([block, parts]) => ({ text: parts.join(" ").replace(/\s+/g, " ").trim().slice(0, 300), near: near(block) }))
    .filter((n) => n.text.length > 3);
}
