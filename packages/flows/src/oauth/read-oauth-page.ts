/**
 * Readers of the pages an OAuth login passes through, run in every frame (bundled, see page/in-page/bundle.ts):
 * the site's "Continue with …" controls, and what a provider's page asks beside its sign-in form (an account
 * to choose, an app to authorize, a wall that refuses the browser).
 */
import { bundled } from "../page/in-page/bundled";
import { READ_PROVIDER_CHOICES_SOURCE } from "../page/in-page/generated/read-provider-choices-source";
import { READ_SIGN_IN_CONTROLS_SOURCE } from "../page/in-page/generated/read-sign-in-controls-source";
import type { SelectorPath } from "../page/in-page/kit";
import { readProviderChoices } from "../page/in-page/read-provider-choices";
import { readSignInControls } from "../page/in-page/read-sign-in-controls";

export interface SignInControl {
  /** What it says: its text, value, aria-label, title, and its image's alt text ("Google logo"). */
  text: string;
  /** Where it leads: a link's address, or the action of the form a button sends; "" when a script decides. */
  target: string;
  path: SelectorPath;
}

/** Every shown control (link, button, role=button) with a short label (see in-page/read-sign-in-controls.ts). */
export const readSignInControlsInPage = bundled(readSignInControls, READ_SIGN_IN_CONTROLS_SOURCE);

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

/** What a provider's page offers besides its sign-in form (see in-page/read-provider-choices.ts). */
export const readProviderChoicesInPage = bundled(readProviderChoices, READ_PROVIDER_CHOICES_SOURCE);
