/**
 * The words of a provider's page beside its sign-in form (see readProviderChoices in flows'
 * in-page/read-provider-choices.ts): granting the site access, refusing it, another account.
 */

/** The control that grants the site access. */
export const APPROVE_ACCESS =
  /^(allow|authori[sz]e|approve|accept|grant|agree|continue|yes|confirm|consent|erlauben|zulassen|autoriser|permitir|autorizar|consenti)\b/i;

/** The way to refuse beside it: granting access is a question with two answers. */
export const REFUSE_ACCESS =
  /^(cancel|deny|decline|reject|don.?t allow|no\b|not now|abbrechen|ablehnen|annuler|refuser|cancelar|rechazar|annulla)/i;

/** "Use another account", on a chooser that lists only other accounts. */
export const ANOTHER_ACCOUNT =
  /use (another|a different) account|add (another )?account|switch account|not you\?|sign in with a different/i;
