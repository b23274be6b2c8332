import type { ElementHandle, Page } from "@authsvc/browser";
import { type Deadline, sleep } from "../deadline";

export interface LoginForm {
  username: ElementHandle<HTMLInputElement> | null;
  password: ElementHandle<HTMLInputElement>;
  submit: ElementHandle<Element> | null;
}

/**
 * Runs in the page. Finds the visible password field, the identifier field that belongs with it (by
 * autocomplete token, then input type, then the closest text field before it) and the submit control.
 */
function findLoginFormInPage() {
  const visible = (el: Element): boolean => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none" && Number(s.opacity) > 0;
  };
  const fillable = (el: HTMLInputElement) => visible(el) && !el.disabled && !el.readOnly;
  const password = [...document.querySelectorAll<HTMLInputElement>('input[type="password"]')].find(
    (el) => fillable(el) && el.autocomplete !== "new-password",
  );
  if (!password) return null;
  const scope: ParentNode = password.form ?? document;
  const inputs = [...scope.querySelectorAll<HTMLInputElement>("input")].filter(fillable);
  const textual = inputs.filter((el) => ["text", "email", "tel", ""].includes(el.type) && el.type !== "search");
  const byAutocomplete = textual.find((el) => /\b(username|email)\b/.test(el.autocomplete));
  const byType = textual.find((el) => el.type === "email");
  const before = textual.filter((el) => el.compareDocumentPosition(password) & Node.DOCUMENT_POSITION_FOLLOWING);
  const username = byAutocomplete ?? byType ?? before[before.length - 1] ?? null;

  const controls = [...scope.querySelectorAll<HTMLElement>('button, input[type="submit"], [role="button"]')].filter(visible);
  const submit =
    controls.find((el) => (el as HTMLButtonElement).type === "submit" && el.tagName !== "DIV") ??
    controls.find((el) => /log ?in|sign ?in|continue|submit/i.test(el.textContent ?? (el as HTMLInputElement).value ?? "")) ??
    null;
  return { username, password, submit };
}

/** Waits (within the deadline) for a login form to appear; null when none did. */
export async function detectLoginForm(page: Page, deadline: Deadline, waitMs = 8000): Promise<LoginForm | null> {
  const until = Date.now() + Math.min(waitMs, deadline.remaining());
  for (;;) {
    try {
      const found = await page.evaluateHandle(findLoginFormInPage);
      const password = await found.getProperty("password");
      if (password.asElement()) {
        const form = {
          username: (await found.getProperty("username")).asElement() as ElementHandle<HTMLInputElement> | null,
          password: password.asElement() as ElementHandle<HTMLInputElement>,
          submit: (await found.getProperty("submit")).asElement() as ElementHandle<Element> | null,
        };
        await found.dispose();
        return form;
      }
      await found.dispose();
    } catch {
      // The page navigated while we looked; look again.
    }
    if (Date.now() >= until) return null;
    await sleep(150);
  }
}
