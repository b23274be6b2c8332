/**
 * The words of the steps only a person can take after the password, read by the page reader and tested here.
 *
 * What a page says when it waits for the sign-in to be approved on another device (a push to a phone or an
 * authenticator app: Duo, Okta Verify, Microsoft Authenticator), in the languages most login pages use.
 * Every phrase names the sign-in or the push itself: an app's own approvals ("Approve the request",
 * "Pending approval") are not it. Read in the page (a source string, see readFrameInPage) and here (tests).
 */
export const APPROVAL_WORDS =
  "approve (the |this |your )?(sign.?in|log.?in|login)( request| attempt)?" +
  "|(sent|send|pushed) (you )?(a |an )?(push|sign.?in request|login request|notification)( notification)? to (your|the) (phone|device|mobile|app)" +
  "|check (your|the) (phone|mobile|authenticator app) to (approve|confirm|continue|sign in)" +
  "|tap (yes|approve|allow) (on|in) (your|the) (phone|app|notification)" +
  "|duo push|okta verify push" +
  "|anmeldung (best[aä]tigen|genehmigen)|approuvez (la|votre) connexion|aprueba (el|tu) inicio de sesi[oó]n|aprove (o|seu) login|approva (l.)?accesso";

/**
 * What a security question says of itself (on its field, or on the page around an "Answer" field): a
 * question the account's owner set, asked after the password. One-time codes and passwords are not it.
 */
export const QUESTION_WORDS =
  "security question|secret question|challenge question|memorable (word|information|answer)|answer (to )?(your|the) (security |secret )?question" +
  "|mother.s maiden name|name of your first (pet|school|car)|city (where|were) you (were )?born" +
  "|sicherheitsfrage|geheimfrage|question (de s[ée]curit[ée]|secr[èe]te)|pregunta (de seguridad|secreta)|pergunta (de seguran[cç]a|secreta)|domanda (di sicurezza|segreta)|beveiligingsvraag";

/**
 * What a chooser says after the password: the account, profile or organization to go on as. Every phrase
 * names the choosing of one: a signed-in page's "Select all" or "Choose a plan" is not it.
 */
export const CHOOSER_WORDS =
  "(choose|select|pick) (an|your|the|which) (account|profile|organi[sz]ation|workspace|tenant|company)( to (continue|use|sign in))?" +
  "|which (account|profile|organi[sz]ation|workspace) (do you want|would you like) to (use|continue|sign in)" +
  "|(choose|select) (the )?(account|organi[sz]ation|workspace) you want to (use|sign in|continue)" +
  "|konto (ausw[aä]hlen|w[aä]hlen)|w[aä]hlen sie (ein|ihr|das) konto|choisissez (un|votre) compte|s[ée]lectionnez (un|votre) compte" +
  "|(elige|selecciona) (una|tu) cuenta|(escolha|selecione) (uma|sua) conta|(scegli|seleziona) (un|il tuo) account|kies (een|je) account";

/**
 * What a "verify it's you" step says after the password: the site does not trust this sign-in yet (a new
 * device or place) and asks the account's person to prove it is them: a detail of the account typed in (the
 * phone number, the recovery address), or a link mailed to them. Every phrase names the person or the
 * sign-in: "Verify your email address" after a signup, or "Verified" on a profile, is not it.
 */
export const VERIFY_WORDS =
  "(verify|confirm) (it.?s|that it.?s|it is|that it is) (really )?you" +
  "|(verify|confirm) your identity|help us (verify|confirm) (it.?s|that it.?s) you|prove (it.?s|that it.?s) you" +
  "|unusual (sign.?in|log.?in|login) (activity|attempt)|(we )?(don.?t|do not) recognize this (device|browser|computer|location)" +
  "|new (device|browser|location) (detected|sign.?in)|sign.?in from a new (device|browser|location)" +
  "|best[aä]tigen sie,? dass sie es sind|best[aä]tigen sie ihre identit[aä]t|identit[aä]t (best[aä]tigen|verifizieren)" +
  "|(v[ée]rifiez|confirmez) (votre identit[ée]|qu.il s.agit bien de vous)|(verifica|confirma) (tu identidad|que eres t[uú])" +
  "|(confirme|verifique) (sua identidade|que [ée] voc[eê])|(verifica|conferma) (la tua identit[aà]|che sei tu)|bevestig (je|uw) identiteit";

/**
 * What a page says that holds the sign-in until the account's person accepts the site's terms (new or
 * updated terms of service, a privacy policy): the decision is theirs, never the service's. Every phrase asks
 * for the acceptance: a footer's "Terms of Service" link, or "By signing in you agree…", is not it.
 */
export const TERMS_WORDS =
  "(accept|agree to|review and accept) (the |our )?(updated |new |revised |latest )?(terms|privacy policy|user agreement|conditions)( of (service|use))?( to (continue|proceed|keep using))" +
  "|(we.?ve|we have) (updated|changed|revised) (our|the) (terms|privacy policy|user agreement|conditions)[\\s\\S]{0,100}?\\b(accept|agree)" +
  "|(review|read) and accept (the |our )?(updated |new )?(terms|privacy policy|user agreement)" +
  "|(nutzungsbedingungen|agb|datenschutzerkl[aä]rung|bedingungen) (akzeptieren|zustimmen)|stimmen sie (den|der) (neuen |aktualisierten )?(nutzungsbedingungen|agb|datenschutzerkl[aä]rung) zu" +
  "|accepte[rz] (les|nos) (nouvelles |nouvelles )?conditions|acept(ar|e) (los|las|nuestros|nuestras) (nuevos |nuevas )?(t[ée]rminos|condiciones)" +
  "|aceit(ar|e) (os|nossos) (novos )?termos|accett(are|a) i (nuovi )?termini|(accepteer|accepteren) (de|onze) (nieuwe )?voorwaarden";

/** The words the page reader matches, as sources (the reader runs in the page). */
export const PERSON_STEP_WORDS = {
  approval: APPROVAL_WORDS,
  question: QUESTION_WORDS,
  chooser: CHOOSER_WORDS,
  verify: VERIFY_WORDS,
  terms: TERMS_WORDS,
};
export type PersonStepWords = typeof PERSON_STEP_WORDS;

const APPROVAL = new RegExp(APPROVAL_WORDS, "i");
const QUESTION = new RegExp(QUESTION_WORDS, "i");
const CHOOSER = new RegExp(CHOOSER_WORDS, "i");
const VERIFY = new RegExp(VERIFY_WORDS, "i");
const TERMS = new RegExp(TERMS_WORDS, "i");

/** Whether the text asks to approve the sign-in on another device. */
export function asksApproval(text: string): boolean {
  return APPROVAL.test(text);
}

/** Whether the text asks a security question. */
export function asksQuestion(text: string): boolean {
  return QUESTION.test(text);
}

/** Whether the text asks to choose an account, profile or organization. */
export function asksChoice(text: string): boolean {
  return CHOOSER.test(text);
}

/** Whether the text asks the account's person to verify it is them (a new device, an unusual sign-in). */
export function asksVerification(text: string): boolean {
  return VERIFY.test(text);
}

/** Whether the text holds the sign-in until the site's terms are accepted. */
export function asksConsent(text: string): boolean {
  return TERMS.test(text);
}
