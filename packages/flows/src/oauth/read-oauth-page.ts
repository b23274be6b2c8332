/**
 * Readers of the pages an OAuth login passes through, run in every frame with the in-page kit: the site's
 * "Continue with …" controls, and what a provider's page asks beside its sign-in form (an account to
 * choose, an app to authorize, a wall that refuses the browser).
 */
import { inPage, type PageKit, type SelectorPath } from "../page/in-page/kit";

export interface SignInControl {
  /** What it says: its text, value, aria-label, title, and its image's alt text ("Google logo"). */
  text: string;
  /** Where it leads: a link's address, or the action of the form a button sends; "" when a script decides. */
  target: string;
  path: SelectorPath;
}

/** Every shown control (link, button, role=button) with a short label: the candidates for the provider's button. */
export const readSignInControlsInPage = inPage(function readSignInControlsInPage(kit: PageKit): SignInControl[] {
  const found: SignInControl[] = [];
  for (const el of kit.elements()) {
    if (!kit.isControl(el) || !kit.visible(el)) continue;
    const text = kit.controlText(el);
    if (text.length === 0 || text.length > 120) continue;
    let target = "";
    if (el instanceof HTMLAnchorElement) target = el.href;
    else {
      const form = kit.formOf(el) as HTMLFormElement | null;
      if (form && form instanceof HTMLFormElement) target = form.action;
    }
    found.push({ text, target: /^https?:/i.test(target) ? target : "", path: kit.pathOf(el) });
    if (found.length >= 200) break;
  }
  return found;
});

export interface ProviderChoices {
  /** The control that grants the site access ("Allow", "Authorize acme", "Continue"), on a page with a way to refuse beside it. */
  approve: SelectorPath | null;
  /** The signed-in account on an account chooser, when it is the one we sign in with. */
  account: SelectorPath | null;
  /** "Use another account": to the sign-in form, past a chooser that lists only other accounts. */
  anotherAccount: SelectorPath | null;
  /** The start of the page's visible text, for walls that refuse the browser. */
  text: string;
}

/** What a provider's page offers besides its sign-in form. `identifier`: the account we sign in with. */
export const readProviderChoicesInPage = inPage(function readProviderChoicesInPage(
  kit: PageKit,
  identifier: string,
): ProviderChoices {
  const all = kit.elements();
  const shown = all.filter((el) => kit.visible(el));
  const controls = shown.filter(
    (el) => kit.isControl(el) || el.getAttribute("role") === "link" || el.matches("li[data-identifier], [data-email]"),
  );
  const approveWords =
    /^(allow|authori[sz]e|approve|accept|grant|agree|continue|yes|confirm|consent|erlauben|zulassen|autoriser|permitir|autorizar|consenti)\b/i;
  const refuseWords =
    /^(cancel|deny|decline|reject|don.?t allow|no\b|not now|abbrechen|ablehnen|annuler|refuser|cancelar|rechazar|annulla)/i;
  const bodyText = kit.text(document.body ?? document.documentElement).slice(0, 2000);
  // Granting access is a question with two answers: a lone "Continue" is a step of the sign-in, not consent.
  const refuse = controls.find((el) => refuseWords.test(kit.controlText(el)));
  const approve = refuse
    ? (controls.find(
        (el) => el !== refuse && approveWords.test(kit.controlText(el)) && !(el as HTMLButtonElement).disabled,
      ) ?? null)
    : null;
  const wanted = identifier.trim().toLowerCase();
  const mentions = (el: Element) =>
    wanted.length > 0 &&
    `${kit.text(el)} ${el.getAttribute("data-identifier") ?? ""} ${el.getAttribute("data-email") ?? ""}`
      .toLowerCase()
      .includes(wanted);
  // The chooser's entry for our account: the smallest clickable thing that names it.
  const accountEntries = controls.filter(mentions).sort((a, b) => kit.text(a).length - kit.text(b).length);
  const another = controls.find((el) =>
    /use (another|a different) account|add (another )?account|switch account|not you\?|sign in with a different/i.test(
      kit.controlText(el),
    ),
  );
  const hasForm = shown.some((el) => el instanceof HTMLInputElement && ["password", "email", "text"].includes(el.type));
  return {
    approve: kit.pathOf(approve),
    account: hasForm ? null : kit.pathOf(accountEntries[0] ?? null),
    anotherAccount: hasForm ? null : kit.pathOf(another ?? null),
    text: bodyText,
  };
});
