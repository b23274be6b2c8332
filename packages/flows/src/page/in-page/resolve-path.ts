import type { SelectorPath } from "./kit";

/**
 * Runs in the page, sent by Puppeteer as its own source (it uses nothing but the DOM): the element a selector
 * path names, or null. Kept to code the swc transform (ES2022) leaves as written, with no helpers.
 */
export function resolvePathInPage(path: SelectorPath): Element | null {
  let root: Document | ShadowRoot = document;
  let el: Element | null = null;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    if (segment.startsWith("@")) {
      let node: Element | undefined;
      let parent: ParentNode = root;
      for (const index of segment.slice(1).split(".").map(Number)) {
        node = parent.children[index];
        if (!node) return null;
        parent = node;
      }
      el = node ?? null;
    } else {
      el = root.querySelector(segment);
    }
    if (!el) return null;
    if (i < path.length - 1) {
      if (!el.shadowRoot) return null;
      root = el.shadowRoot;
    }
  }
  return el;
}
