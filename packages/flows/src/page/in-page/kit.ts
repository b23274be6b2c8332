import { KIT_WORDS } from "@authsvc/contracts/src/words/reader-words";

/**
 * The in-page kit: what every script that reads a page inside the browser shares, written once — the walk
 * through open shadow roots, what a person sees, an element's text and labels, buttons, selector paths.
 *
 * How it gets into the page: each in-page reader is a module that calls `pageKit()`, bundled by esbuild with
 * the kit and its words into one self-contained function (`bundle.ts`, committed under `generated/`), which
 * Puppeteer sends as its source text. Each evaluation builds the kit afresh in the frame it runs in. Nothing
 * is installed in the page (no global a site could see, break or keep across a navigation), so it works alike
 * in the main frame, same-origin and cross-origin iframes and after navigations; it goes through
 * Runtime.callFunctionOn like any evaluate (no eval in the page, so a Content-Security-Policy does not stop it).
 */

/** Names an element: one CSS selector per document or open shadow root on the way down (`@0.1.2`: child positions). */
export type SelectorPath = string[];

export type FormField = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export function pageKit() {
  /** Every element of the document and of open shadow roots, in document (flat tree) order. */
  const elements = (): Element[] => {
    const all: Element[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll("*")) {
        all.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return all;
  };
  /** The document, then every open shadow root in it (nested ones too). */
  const roots = (): Array<Document | ShadowRoot> => {
    const found: Array<Document | ShadowRoot> = [document];
    for (let i = 0; i < found.length; i++) {
      for (const el of found[i]!.querySelectorAll("*")) if (el.shadowRoot) found.push(el.shadowRoot);
    }
    return found;
  };

  /** Drawn: not zero-size, transparent or hidden. */
  const shown = (el: Element): boolean => {
    const r = el.getBoundingClientRect();
    return r.width >= 4 && r.height >= 4 && el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  };
  /** What a person can see: drawn, in the document, and not moved off screen (a honeypot). */
  const visible = (el: Element): boolean => {
    if (!el.isConnected) return false;
    const r = el.getBoundingClientRect();
    if (r.right + scrollX <= 0 || r.bottom + scrollY <= 0) return false;
    return shown(el);
  };
  const text = (el: Element) => (el.textContent ?? "").replace(/\s+/g, " ").trim();
  // What a control says it does; an image button or a link around an image says it in its alt text.
  const controlText = (el: Element, images = true) =>
    [
      text(el),
      (el as HTMLInputElement).value,
      el.getAttribute("aria-label"),
      el.getAttribute("title") as string | null | undefined,
    ]
      .concat(images ? [el.getAttribute("alt"), el.querySelector("img[alt]")?.getAttribute("alt")] : [])
      .filter((t) => typeof t === "string" && t.length > 0)
      .join(" ")
      .slice(0, 200);
  /** The texts of a field's labels and of the elements its aria-labelledby names. */
  const labelTexts = (el: Element): string[] => {
    const parts: string[] = [];
    for (const label of (el as HTMLInputElement).labels ?? []) parts.push(text(label));
    for (const id of (el.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean)) {
      const label = (el.getRootNode() as Document | ShadowRoot).getElementById?.(id);
      if (label) parts.push(text(label));
    }
    return parts;
  };
  /** All a field says of itself: name, id, placeholder, aria-label, title and labels. */
  const describe = (el: Element): string => {
    const input = el as HTMLInputElement;
    const parts = [
      input.name,
      input.id,
      input.getAttribute("placeholder"),
      el.getAttribute("aria-label"),
      el.getAttribute("title"),
    ];
    return parts.concat(labelTexts(el)).filter(Boolean).join(" ");
  };
  /** The form of a field. */
  const formOf = (el: Element): Element | null => (el as HTMLInputElement).form ?? el.closest("form");
  /** A button, a submit or button input (an image input too, with `images`), a role=button element or a link. */
  const isControl = (el: Element, images = true) =>
    el instanceof HTMLButtonElement ||
    (el instanceof HTMLInputElement &&
      (images ? ["submit", "button", "image"] : ["submit", "button"]).includes(el.type)) ||
    el.getAttribute("role") === "button" ||
    el instanceof HTMLAnchorElement;
  /** The highest-scoring item with at least `min`; the first one wins a tie. */
  const best = <T extends Element>(items: T[], score: (el: T) => number, min = 1): T | null => {
    let top: T | null = null;
    let topScore = min - 1;
    for (const el of items) {
      const s = score(el);
      if (s > topScore) {
        top = el;
        topScore = s;
      }
    }
    return top;
  };

  const selectorIn = (el: Element, root: Document | ShadowRoot): string => {
    const unique = (sel: string) => {
      try {
        const found = root.querySelectorAll(sel);
        return found.length === 1 && found[0] === el;
      } catch {
        return false;
      }
    };
    const tag = el.tagName.toLowerCase();
    if (el.id && !/\d{3,}|^:r/.test(el.id) && unique(`#${CSS.escape(el.id)}`)) return `#${CSS.escape(el.id)}`;
    const name = el.getAttribute("name");
    if (name && unique(`${tag}[name="${CSS.escape(name)}"]`)) return `${tag}[name="${CSS.escape(name)}"]`;
    // Child positions from the root down ("@0.1.2"): unique by construction, if brittle.
    const steps: number[] = [];
    for (let n: Element | null = el; n && n.parentNode; n = n.parentElement) {
      steps.unshift([...n.parentNode.children].indexOf(n));
      if (n.parentNode === root) break;
    }
    return `@${steps.join(".")}`;
  };
  /** The selector path of an element (see resolvePathInPage for the way back). */
  function pathOf(el: Element): SelectorPath;
  function pathOf(el: Element | null): SelectorPath | null;
  function pathOf(el: Element | null): SelectorPath | null {
    if (!el) return null;
    const path: string[] = [];
    let node: Element = el;
    for (;;) {
      const root = node.getRootNode() as Document | ShadowRoot;
      path.unshift(selectorIn(node, root));
      if (root instanceof ShadowRoot) node = root.host;
      else break;
    }
    return path;
  }

  /** A field `additionalFields` can fill: a shown input that takes a value, a select or a textarea. */
  const isFormField = (el: Element): el is FormField =>
    ((el instanceof HTMLInputElement && !["hidden", "password", "submit", "button", "image"].includes(el.type)) ||
      el instanceof HTMLSelectElement ||
      el instanceof HTMLTextAreaElement) &&
    visible(el);
  /** The field an `additionalFields` key names: an exact name, id, label or placeholder first, then one that contains the key. */
  const fieldFor = (key: string, fields: FormField[]): FormField | null => {
    const norm = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
    const wanted = norm(key);
    return best(fields, (el) => {
      const names = [el.name, el.id, el.getAttribute("placeholder") ?? "", el.getAttribute("aria-label") ?? ""];
      for (const label of el.labels ?? []) names.push(text(label));
      const normalized = names.filter(Boolean).map(norm);
      if (normalized.includes(wanted)) return 3;
      return wanted.length >= 3 && normalized.some((n) => n.includes(wanted)) ? 1 : 0;
    });
  };
  /** The browser's own complaint about a filled field, in our words: its validation message can quote the value. */
  const validation = (el: HTMLInputElement, what: string | null): string => {
    const field = what === null ? "the field" : `the field "${what}"`;
    if (el.validity.typeMismatch)
      return `${field} wants ${el.type === "email" ? "an email address" : `a value of type ${el.type}`}`;
    if (el.validity.patternMismatch)
      return `${what === null ? "the value" : `the value of "${what}"`} does not match the field's pattern`;
    if (el.validity.tooShort || el.validity.tooLong)
      return `${what === null ? "the value's length" : `the length of "${what}"`} is outside what the field allows`;
    return `${field} does not accept the value`;
  };
  /** Visible messages: alerts and error texts. */
  const messages = (all: Element[]): string[] => {
    const marked = all.filter(
      (el) =>
        el.matches(
          '[role="alert"], [aria-live="assertive"], [aria-live="polite"], .error, .alert, .invalid-feedback, .notice, [class*="error" i], [id*="error" i]',
        ) &&
        // A live region around controls is a part of the page that updates (WordPress's sessions row, a
        // form), not a message: only what it says without a control in it is one.
        !(
          el.matches("[aria-live]") &&
          !el.matches('[role="alert"], .error, .alert, .notice, [class*="error" i]') &&
          el.querySelector("button, input, select, textarea")
        ) &&
        visible(el) &&
        text(el).length > 0,
    );
    return [...new Set(marked.map((el) => text(el).slice(0, 300)))];
  };
  /** The frame's localStorage as one string, to see it change ("" when the frame may not read it). */
  const storage = (): string => {
    try {
      return Object.keys(localStorage)
        .sort()
        .map((k) => `${k}=${localStorage.getItem(k)}`)
        .join("&");
    } catch {
      return "";
    }
  };

  /** The accept button of a cookie-consent banner that is shown, among `clickables`. */
  const consentButton = (all: Element[], clickables: Element[]): Element | null => {
    const box = KIT_WORDS.consentBox;
    const yes = KIT_WORDS.consentYes;
    const banners = all.filter((el) => {
      const marker = `${el.id} ${typeof el.className === "string" ? el.className : ""} ${el.getAttribute("aria-label") ?? ""}`;
      return box.test(marker) && visible(el);
    });
    for (const banner of banners) {
      const accept = best(
        clickables.filter((el) => banner.contains(el) && visible(el)),
        (el) => (yes.test(controlText(el)) ? 2 : 0),
        1,
      );
      if (accept) return accept;
    }
    return null;
  };
  /** A sign-out control or an account menu: signs of a signed-in page (`moreSignOut`: other languages' words, words/login-words.ts in @authsvc/contracts). */
  /**
   * A sign-out control, of any shape: a link, a button, an `<input type=submit value="Logout">` (in a logout
   * form or not), a menu item, a control of a form whose action signs out; by its words (`signOut.labels`,
   * every language the engine reads) or its address or name (`signOut.address`). Shown, as a person sees it.
   */
  // The words compiled once per read of the frame, not once per element.
  let compiled: { from: { labels: string; address: string }; words: RegExp; address: RegExp } | null = null;
  const isSignOut = (el: Element, signOut: { labels: string; address: string }): boolean => {
    const input = el instanceof HTMLInputElement && /^(submit|button|image)$/.test(el.type);
    const role = el.getAttribute("role");
    if (!(
      el instanceof HTMLAnchorElement ||
      el instanceof HTMLButtonElement ||
      input ||
      role === "menuitem" ||
      role === "button"
    ))
      return false;
    if (compiled?.from !== signOut)
      compiled = { from: signOut, words: new RegExp(signOut.labels, "i"), address: new RegExp(signOut.address, "i") };
    const { words, address } = compiled;
    const form = (el as HTMLButtonElement).form ?? null;
    const named = `${el.getAttribute("href") ?? ""} ${el.getAttribute("formaction") ?? ""} ${el.getAttribute("name") ?? ""} ${el.id}`;
    return (
      (words.test(controlText(el)) && controlText(el).length <= 60) ||
      address.test(named) ||
      (!!form && address.test(form.getAttribute("action") ?? ""))
    );
  };
  const signedInSign = (all: Element[], signOut: { labels: string; address: string }): Element | null => {
    const accountMenu = KIT_WORDS.accountMenu;
    return (
      all.find((el) => isSignOut(el, signOut) && visible(el)) ??
      all.find(
        (el) =>
          visible(el) &&
          accountMenu.test(`${el.id} ${el.getAttribute("aria-label") ?? ""} ${el.getAttribute("data-testid") ?? ""}`),
      ) ??
      null
    );
  };

  return {
    elements,
    roots,
    shown,
    visible,
    text,
    controlText,
    labelTexts,
    describe,
    formOf,
    isControl,
    best,
    pathOf,
    isFormField,
    fieldFor,
    validation,
    messages,
    storage,
    consentButton,
    isSignOut,
    signedInSign,
  };
}

export type PageKit = ReturnType<typeof pageKit>;
