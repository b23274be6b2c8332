/**
 * Words of the pages an OAuth login meets that are a verdict of their own, beside the login engine's
 * refusal words (refusal-words.ts): a provider refusing the browser, an authorization denied, and a site
 * that signs nobody in through a provider account it does not know.
 */

/** The provider will not sign in from this browser: Google's and Microsoft's insecure-browser walls, unusual-activity stops. */
export const BROWSER_REFUSED =
  /(browser|app) (or app )?may not be secure|try (using )?a different browser|browser (is )?(not supported|unsupported)|unusual (activity|traffic)|suspicious (activity|sign.?in attempt)|automated (queries|requests|traffic)|we (couldn.?t|could not) verify (that )?(it.?s|this is) you|couldn.?t sign you in/i;

/** The authorization was not granted: denied or cancelled on the provider, or an administrator's block. */
export const ACCESS_DENIED =
  /access (was )?denied|access_denied|denied (the |this )?(request|access)|(you )?(cancel+ed|declined|denied) (the )?(sign.?in|signing in|authori[sz]ation|access|request)|authori[sz]ation (was )?(denied|declined|cancel+ed)|access blocked|blocked by (your|the) administrator|not (allowed|authori[sz]ed) to (access|use) (this )?app/i;

/** A site refusing the provider's account: no account of its own linked to it. */
export const NOT_LINKED =
  /not linked|no (\p{L}+ ){0,3}account (is |was )?(linked|associated|connected|found)|isn.?t (linked|connected|associated)|not (registered|associated|connected)|sign ?up first|register first|create an account first|no account (exists|found)|doesn.?t have an account|account (does not|doesn.?t) exist/iu;
