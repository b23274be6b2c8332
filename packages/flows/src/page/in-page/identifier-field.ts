/**
 * The username or email field that goes with the password, or the only field of a username-first step;
 * and, when nothing decides between the fields it could go in, those fields (the login stops: never a guess).
 */
import type { FormField } from "./kit";
import type { FrameContext } from "./frame-context";
import { words } from "@authsvc/contracts/src/words/reader-words";

export function readIdentifier(
  frame: FrameContext,
  password: HTMLInputElement | null,
  passwordCandidates: HTMLInputElement[],
): { identifierEl: HTMLInputElement | null; ambiguous: HTMLInputElement[] } {
  const { kit, all, inputs, clickables, identifier, extraKeys, fillable, contextText, isOtp, isQuestion } = frame;
  const { visible, controlText, describe, formOf, best } = kit;
  // Account and contract numbers come in search, telephone and number fields too.
  const textual = inputs.filter(
    (el) =>
      fillable(el) &&
      ["text", "email", "tel", "search", "number", ""].includes(el.type) &&
      el !== password &&
      !passwordCandidates.includes(el) &&
      !isOtp(el) &&
      !isQuestion(el) &&
      el.getAttribute("role") !== "searchbox",
  );
  const byPhone = /^\+?[0-9][0-9 ()-]{6,}$/.test(identifier);
  // Fields the request's additionalFields name are theirs: the username goes in none of them.
  const claimed = new Set(
    extraKeys
      .map((key) =>
        kit.fieldFor(
          key,
          all.filter((el): el is FormField => el !== password && kit.isFormField(el)),
        ),
      )
      .filter(Boolean),
  );
  // A field whose own rules the username breaks is not where it goes: a pattern (HTML or ASP.NET's
  // data-val-regex-pattern), a maximum length, digits only (inputmode numeric, type tel or number).
  const refuses = (el: HTMLInputElement): boolean => {
    if (!identifier) return false;
    for (const pattern of [el.getAttribute("pattern"), el.getAttribute("data-val-regex-pattern")]) {
      if (!pattern) continue;
      try {
        if (!new RegExp(`^(?:${pattern})$`, "u").test(identifier)) return true;
      } catch {
        // A pattern the browser cannot read either: no rule.
      }
    }
    if (el.maxLength > 0 && identifier.length > el.maxLength) return true;
    const digitsOnly =
      ["numeric", "decimal", "tel"].includes(el.inputMode) || el.type === "tel" || el.type === "number";
    return digitsOnly && /\p{L}/u.test(identifier);
  };
  // What says a field is the username's: its type, its autocomplete, its words (name, label, placeholder);
  // for a phone number, a field marked for one (type=tel alone is every digits field's type).
  const decisive = (el: HTMLInputElement): boolean =>
    /\b(username|email)\b/.test(el.autocomplete) ||
    el.type === "email" ||
    words.user.test(describe(el)) ||
    (byPhone && /\btel\b/.test(el.autocomplete));
  const identifierScore = (el: HTMLInputElement, anchor: Element | null): number => {
    const desc = describe(el);
    let s = 0;
    if (/\b(username|email)\b/.test(el.autocomplete)) s += 6;
    if (el.type === "email") s += 3;
    // A login by phone number (SMS codes): the phone field is the identifier.
    if (byPhone && (/\btel\b/.test(el.autocomplete) || el.type === "tel")) s += 6;
    if (words.user.test(desc)) s += 4;
    else if (words.accountNumber.test(desc)) s += 2;
    if (words.search.test(desc)) s -= 10;
    else if (el.type === "search") s -= 3;
    if (words.newsletter.test(`${desc} ${contextText(el)}`)) s -= 8;
    if (el.autocomplete === "off" && el.tabIndex < 0) s -= 10; // a trap for bots
    if (anchor) {
      const sameForm = formOf(el) === formOf(anchor);
      if (formOf(anchor)) s += sameForm ? 3 : -6;
      if (el.compareDocumentPosition(anchor) & Node.DOCUMENT_POSITION_FOLLOWING) s += 1;
    }
    return s;
  };
  let identifierEl: HTMLInputElement | null;
  let ambiguous: HTMLInputElement[] = [];
  if (password) {
    // A field whose rules the username breaks is ruled out, unless every field of its kind is (then the site decides).
    const fitting = (fields: HTMLInputElement[]) =>
      fields.some((el) => !refuses(el)) ? fields.filter((el) => !refuses(el)) : fields;
    const form = formOf(password);
    const open = textual.filter((el) => !claimed.has(el));
    const isBefore = (el: HTMLInputElement) =>
      !!(el.compareDocumentPosition(password) & Node.DOCUMENT_POSITION_FOLLOWING);
    // A field of the password's own form, before it, beats any field of another form, whatever its words.
    const ownForm = form ? fitting(open.filter((el) => isBefore(el) && formOf(el) === form)) : [];
    const pool = fitting(open);
    const before = pool.filter(isBefore);
    // The closest fillable text field before the password wins a tie: that is where people put it.
    const closest = before[before.length - 1];
    const score = (el: HTMLInputElement) => identifierScore(el, password) + (el === closest ? 2 : 0);
    identifierEl = best(ownForm, score, 1) ?? best(pool, score, 1);
    if (identifier) {
      // Never a silent guess. The visible, empty fields before the password in its form (a search box, a
      // newsletter field or a bot trap aside): the one a field's own marks decide, or the only one there
      // (whatever its score: a "user code" field with no word we read), else the login is ambiguous.
      const shown = (form ? ownForm : before).filter(
        (el) => (el.value === "" || el.value === identifier) && identifierScore(el, password) > -3,
      );
      const deciding = shown.filter(decisive);
      if (deciding.length === 1) identifierEl = deciding[0]!;
      else if (deciding.length > 1) {
        const ranked = deciding.map((el) => ({ el, s: score(el) })).sort((a, b) => b.s - a.s);
        if (ranked[0]!.s === ranked[1]!.s) ambiguous = deciding;
        else identifierEl = ranked[0]!.el;
      } else if (shown.length === 1) identifierEl = shown[0]!;
      else if (shown.length > 1) ambiguous = shown;
      if (ambiguous.length > 0) identifierEl = null;
    }
  } else {
    // Without a password field, a field that says it wants a username or email starts a login; so does
    // one that hints at it (a word, type=email) when it is the only text field beside a Next/Continue control.
    identifierEl = best(textual, (el) => identifierScore(el, null), 6);
    const hinted = identifierEl ? null : best(textual, (el) => identifierScore(el, null), 3);
    let scope: Element | null = hinted && formOf(hinted);
    for (let up = 0, n = hinted?.parentElement ?? null; !scope && n && up < 4; up++, n = n.parentElement) {
      if (clickables.some((c) => n!.contains(c) && visible(c))) scope = n;
    }
    const lone = !!scope && textual.filter((el) => scope!.contains(el)).length === 1;
    if (
      lone &&
      clickables.some(
        (c) =>
          scope!.contains(c) && visible(c) && words.next.test(controlText(c)) && !words.notSubmit.test(controlText(c)),
      )
    ) {
      identifierEl = hinted;
    }
    // A first step asks for the username (beside a field or two at most: a remembered name, a region); a
    // form of many fields (a signed-in profile's email among names, a website, a biography) is no sign-in step.
    const stepForm = identifierEl && formOf(identifierEl);
    if (
      stepForm &&
      [...stepForm.querySelectorAll("input, textarea, select")].filter(
        (el) =>
          !/^(hidden|submit|button|image|reset|checkbox|radio|file)$/.test((el as HTMLInputElement).type) &&
          visible(el),
      ).length >= 4
    ) {
      identifierEl = null;
    }
  }
  return { identifierEl, ambiguous };
}
