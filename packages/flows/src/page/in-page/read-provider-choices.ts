import { ANOTHER_ACCOUNT, APPROVE_ACCESS, REFUSE_ACCESS } from "@authsvc/contracts/src/words/oauth-page-words";
import type { ProviderChoices } from "../../oauth/read-oauth-page";
import { pageKit } from "./kit";

/** What a provider's page offers besides its sign-in form. `identifier`: the account we sign in with. */
export function readProviderChoices(identifier: string): ProviderChoices {
  const kit = pageKit();
  const all = kit.elements();
  const shown = all.filter((el) => kit.visible(el));
  const controls = shown.filter(
    (el) => kit.isControl(el) || el.getAttribute("role") === "link" || el.matches("li[data-identifier], [data-email]"),
  );
  const bodyText = kit.text(document.body ?? document.documentElement).slice(0, 2000);
  // Granting access is a question with two answers: a lone "Continue" is a step of the sign-in, not consent.
  const refuse = controls.find((el) => REFUSE_ACCESS.test(kit.controlText(el)));
  const approve = refuse
    ? (controls.find(
        (el) => el !== refuse && APPROVE_ACCESS.test(kit.controlText(el)) && !(el as HTMLButtonElement).disabled,
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
  const another = controls.find((el) => ANOTHER_ACCOUNT.test(kit.controlText(el)));
  const hasForm = shown.some((el) => el instanceof HTMLInputElement && ["password", "email", "text"].includes(el.type));
  return {
    approve: kit.pathOf(approve),
    account: hasForm ? null : kit.pathOf(accountEntries[0] ?? null),
    anotherAccount: hasForm ? null : kit.pathOf(another ?? null),
    text: bodyText,
  };
}
