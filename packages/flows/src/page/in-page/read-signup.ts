import { SIGNUP_WORDS } from "@authsvc/contracts/src/words/signup-words";
import type { SignupField, SignupReading, SignupRole } from "../../signup/read-signup-form";
import { pageKit, type SelectorPath } from "./kit";

/**
 * Runs in the page (bundled with its imports, see bundle.ts): what one frame shows of a signup form (see
 * read-signup-form.ts).
 */
export function readSignup(): SignupReading {
  const kit = pageKit();
  const { visible, text, pathOf } = kit;
  const words = SIGNUP_WORDS;

  const all = kit.elements();
  const controlText = (el: Element) => kit.controlText(el, false);
  const labelsOf = (el: Element): string => kit.labelTexts(el).join(" ");
  const parts = (el: Element): string[] => {
    const input = el as HTMLInputElement;
    return [
      input.name,
      input.id,
      input.getAttribute("placeholder"),
      el.getAttribute("aria-label"),
      labelsOf(el),
    ].filter((p): p is string => !!p);
  };
  const describe = (el: Element): string => parts(el).join(" ");
  // Anchored words ("^name$") must meet one of the field's names on its own, not all of them joined.
  const names = (el: Element, re: RegExp) => parts(el).some((p) => re.test(p.trim()));
  const formOf = (el: Element): Element | null =>
    kit.formOf(el) ?? el.parentElement?.parentElement?.parentElement ?? null;

  const inputs = all.filter(
    (el): el is HTMLInputElement => el instanceof HTMLInputElement && visible(el) && !el.disabled,
  );
  // A new-password field the page shows in clear (WordPress reveals the strong password it pre-filled) is one too.
  const passwords = inputs.filter(
    (el) => el.type === "password" || (el.type === "text" && /new-password/.test(el.autocomplete)),
  );
  const clickables = all.filter((el) => visible(el) && kit.isControl(el, false));

  // The candidate forms: each one holding a password field (a signup form always asks for one, unless an
  // invitation or passwordless site; those still name their button "Sign up" / "Join").
  const scopes = [
    ...new Set([
      ...passwords.map(formOf),
      ...clickables.filter((el) => words.signupAction.test(controlText(el))).map(formOf),
    ]),
  ].filter((s): s is Element => s !== null);
  const scoreOf = (scope: Element): number => {
    const mine = passwords.filter((p) => scope.contains(p));
    const fields = inputs.filter(
      (el) => scope.contains(el) && ["text", "email", "tel", ""].includes(el.type) && !passwords.includes(el),
    );
    const buttons = clickables.filter((el) => scope.contains(el) && !(el instanceof HTMLAnchorElement));
    let s = 0;
    if (mine.some((p) => /new-password/.test(p.autocomplete))) s += 4;
    if (mine.length >= 2) s += 4;
    if (mine.some((p) => /current-password/.test(p.autocomplete))) s -= 5;
    if (buttons.some((b) => words.signupAction.test(controlText(b)))) s += 4;
    if (buttons.some((b) => words.loginAction.test(controlText(b)))) s -= 3;
    if (
      inputs.some(
        (el) => scope.contains(el) && el.type === "checkbox" && words.consent.test(`${labelsOf(el)} ${el.name}`),
      )
    )
      s += 2;
    if (fields.length >= 2) s += 1;
    if (
      fields.some(
        (el) =>
          /given-name|family-name|^name$/.test(el.autocomplete) ||
          words.fullName.test(describe(el)) ||
          words.firstName.test(describe(el)),
      )
    )
      s += 2;
    if (fields.some((el) => words.invite.test(describe(el)))) s += 2;
    return s;
  };
  let form: Element | null = null;
  let score = 0;
  for (const scope of scopes) {
    const s = scoreOf(scope);
    if (s > score) {
      form = scope;
      score = s;
    }
  }

  const fields: SignupField[] = [];
  const consents: SelectorPath[] = [];
  const unfilled: SignupReading["unfilled"] = [];
  let submit: Element | null = null;
  let passwordFacts: SignupReading["passwordFacts"] = null;
  if (form && score >= 4) {
    const scope = form;
    const mine = inputs.filter((el) => scope.contains(el));
    const taken = new Set<Element>();
    const add = (role: SignupRole, el: HTMLInputElement | null | undefined) => {
      if (!el || taken.has(el)) return;
      taken.add(el);
      fields.push({
        role,
        path: pathOf(el),
        value: el.type === "password" ? "" : el.value,
        readOnly: el.readOnly,
        required: el.required,
      });
    };
    const myPasswords = mine.filter((el) => passwords.includes(el));
    const confirm =
      myPasswords.length >= 2
        ? (myPasswords.find((el, i) => i > 0 && words.confirm.test(describe(el))) ?? myPasswords[1])
        : undefined;
    const password = myPasswords.find((el) => el !== confirm);
    add("password", password);
    add("confirm", confirm);
    const textual = mine.filter(
      (el) =>
        ["text", "email", "tel", ""].includes(el.type) &&
        !passwords.includes(el) &&
        el.getAttribute("role") !== "searchbox" &&
        !(el.autocomplete === "off" && el.tabIndex < 0),
    );
    const pick = (test: (el: HTMLInputElement, desc: string) => boolean) =>
      textual.find((el) => !taken.has(el) && test(el, describe(el)));
    const isEmail = (el: HTMLInputElement, d: string) =>
      el.type === "email" || /\bemail\b/.test(el.autocomplete) || words.email.test(d);
    add(
      "email",
      pick((el, d) => isEmail(el, d) && !words.confirm.test(d)),
    );
    add(
      "confirmEmail",
      pick((el, d) => isEmail(el, d) && words.confirm.test(d)),
    );
    add(
      "invite",
      pick((_el, d) => words.invite.test(d)),
    );
    add(
      "username",
      pick((el) => (/\busername\b/.test(el.autocomplete) && el.type !== "email") || names(el, words.username)),
    );
    add(
      "firstName",
      pick((el) => /given-name/.test(el.autocomplete) || names(el, words.firstName)),
    );
    add(
      "lastName",
      pick((el) => /family-name/.test(el.autocomplete) || names(el, words.lastName)),
    );
    add(
      "fullName",
      pick((el) => /^name$|\bname$/.test(el.autocomplete) || names(el, words.fullName)),
    );

    for (const box of all.filter(
      (el): el is HTMLInputElement =>
        el instanceof HTMLInputElement && el.type === "checkbox" && !el.disabled && scope.contains(el),
    )) {
      if (box.checked) continue;
      const about = `${labelsOf(box)} ${box.name} ${box.id} ${text(box.parentElement ?? box).slice(0, 200)}`;
      if (!(box.required || (words.consent.test(about) && !words.marketing.test(about)))) continue;
      // A styled box hides its input and shows its label: a person clicks the label.
      const target = visible(box) ? box : [...(box.labels ?? [])].find(visible);
      if (target) consents.push(pathOf(target));
    }
    for (const el of all) {
      const field = el as HTMLInputElement;
      if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement))
        continue;
      if (!scope.contains(el) || !visible(el) || taken.has(el) || !field.required || field.value !== "") continue;
      if (["checkbox", "radio", "hidden", "submit", "button"].includes(field.type)) continue;
      unfilled.push({
        label: (labelsOf(el) || describe(el)).slice(0, 80) || el.tagName.toLowerCase(),
        path: pathOf(el),
      });
    }

    submit =
      clickables
        .filter((el) => scope.contains(el) && !(el instanceof HTMLAnchorElement))
        .map((el) => {
          const t = controlText(el);
          let s = (el as HTMLButtonElement).type === "submit" ? 3 : 0;
          if (words.signupAction.test(t) || words.next.test(t)) s += 4;
          if (words.notSubmit.test(t) && !words.signupAction.test(t)) s -= 8;
          return { el, s };
        })
        .filter((c) => c.s >= 2)
        .sort((a, b) => b.s - a.s)[0]?.el ?? null;

    if (password) {
      const near: string[] = [labelsOf(password)];
      for (const id of (password.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean)) {
        const hint = (password.getRootNode() as Document | ShadowRoot).getElementById?.(id);
        if (hint) near.push(text(hint));
      }
      // Hints sit beside the field: what follows it (or its label) up to the next field, never another field's.
      const anchor = password.closest("label") ?? password;
      for (
        let el = anchor.nextElementSibling, n = 0;
        el && n < 3 && !el.querySelector("input, select, textarea") && !(el instanceof HTMLInputElement);
        el = el.nextElementSibling, n++
      ) {
        if (visible(el) && text(el).length > 0 && text(el).length < 400) near.push(text(el));
      }
      const box = anchor.parentElement;
      if (box && box.querySelectorAll("input:not([type=hidden]), select, textarea").length <= 2) {
        for (const el of box.querySelectorAll("small, p, li"))
          if (visible(el) && text(el).length > 0 && text(el).length < 400) near.push(text(el));
      }
      passwordFacts = {
        passwordrules: password.getAttribute("passwordrules"),
        minLength: password.hasAttribute("minlength") && password.minLength >= 0 ? password.minLength : null,
        maxLength: password.hasAttribute("maxlength") && password.maxLength > 0 ? password.maxLength : null,
        pattern: password.getAttribute("pattern"),
        hints: [...new Set(near.filter((t) => words.passwordRule.test(t)))].slice(0, 8),
      };
    }
  }

  const opener =
    score >= 4
      ? null
      : (clickables.find((el) => {
          const t = controlText(el);
          return t.length <= 40 && words.signupAction.test(t) && !words.provider.test(t);
        }) ?? null);
  const loginAnchor = all.find(
    (el): el is HTMLAnchorElement =>
      el instanceof HTMLAnchorElement &&
      visible(el) &&
      !!el.href &&
      controlText(el).length <= 60 &&
      words.loginMention.test(controlText(el)),
  );
  let loginLink: string | null = null;
  if (loginAnchor) {
    try {
      const url = new URL(loginAnchor.href, location.href);
      if (url.origin === location.origin) loginLink = url.href;
    } catch {
      loginLink = null;
    }
  }

  // Which field the browser refuses, by its label; never its value.
  const invalid = form ? inputs.find((el) => form!.contains(el) && el.value !== "" && !el.validity.valid) : undefined;
  const what = invalid
    ? invalid.type === "password"
      ? "password"
      : describe(invalid).slice(0, 60) || invalid.type
    : "";
  const validation = invalid ? kit.validation(invalid, what) : null;

  return {
    score: form ? score : 0,
    fields,
    consents,
    unfilled,
    submit: submit ? pathOf(submit) : null,
    opener: opener ? pathOf(opener) : null,
    loginLink,
    passwordFacts,
    validation,
  };
}
