import type { ElementHandle, Page } from "@authsvc/browser";
import type { LoginForm } from "./detect-login-form";

/** Types like a person: real key events, so frameworks with controlled inputs see every character. */
async function typeInto(field: ElementHandle<HTMLInputElement>, text: string): Promise<void> {
  await field.click();
  if (await field.evaluate((el) => el.value !== "")) {
    await field.evaluate((el) => el.select());
    await field.press("Backspace");
  }
  await field.type(text);
}

export async function fillLoginForm(form: LoginForm, identifier: string, password: string): Promise<void> {
  if (form.username) await typeInto(form.username, identifier);
  await typeInto(form.password, password);
}

/**
 * Fills extra inputs and selects named by `additionalFields`, matched by name or id. Returns the keys it
 * could not place, so the caller can say so.
 */
export async function fillAdditionalFields(page: Page, fields: Record<string, string | number | boolean>): Promise<string[]> {
  const missing: string[] = [];
  for (const [key, raw] of Object.entries(fields)) {
    const value = String(raw);
    const k = key.replace(/["\\]/g, "\\$&");
    const selector = `input[name="${k}"], input[id="${k}"], select[name="${k}"], select[id="${k}"]`;
    const field = await page.$(selector).catch(() => null);
    if (!field) {
      missing.push(key);
      continue;
    }
    const tag = await field.evaluate((el) => el.tagName);
    if (tag === "SELECT") {
      await field.evaluate((el, v) => {
        const select = el as HTMLSelectElement;
        const option = [...select.options].find((o) => o.value === v || o.text.trim() === v);
        if (option) select.value = option.value;
        select.dispatchEvent(new Event("change", { bubbles: true }));
      }, value);
    } else if (typeof raw === "boolean") {
      const checked = await field.evaluate((el) => (el as HTMLInputElement).checked);
      if (checked !== raw) await field.click();
    } else {
      await typeInto(field as ElementHandle<HTMLInputElement>, value);
    }
  }
  return missing;
}

/** Submits with the form's own control, or Enter in the password field when it has none. */
export async function submitLoginForm(form: LoginForm): Promise<void> {
  if (form.submit) await form.submit.click();
  else await form.password.press("Enter");
}
