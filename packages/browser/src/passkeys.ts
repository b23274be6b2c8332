import type { PasskeyKey } from "@authsvc/contracts";
import type { BrowserContext, CDPSession, Page } from "puppeteer-core";
import { pageSession } from "./page-session";

/** A passkey as the virtual authenticator holds it (see PasskeyKey). */
export type VirtualPasskey = PasskeyKey;

interface Armed {
  cdp: CDPSession;
  authenticatorId: string;
}

const armed = new WeakMap<Page, Promise<Armed>>();

/**
 * Gives a page a WebAuthn virtual authenticator (CDP `WebAuthn`): a built-in platform authenticator that
 * verifies its user and answers without a dialog. Holding no passkey for the site, it answers a site's
 * passkey request with "no credential" at once. Without one, headless Chromium never answers it (its
 * dialog has nobody to dismiss it): the site waits out the request's timeout, minutes, and shows no other
 * way meanwhile. So the site shows its other ways to sign in and the login goes on. A conditional (autofill) request stays pending, as in a browser whose user
 * picks no passkey. Holding the credential's passkeys (`loadPasskeys`), it signs the site's challenge. The
 * authenticator lives as long as the page's own CDP session (pageSession).
 */
export function armAuthenticator(page: Page): Promise<Armed> {
  let arming = armed.get(page);
  if (!arming) {
    arming = (async () => {
      const cdp = await pageSession(page);
      await cdp.send("WebAuthn.enable", { enableUI: false });
      const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          ctap2Version: "ctap2_1",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      return { cdp, authenticatorId };
    })();
    armed.set(page, arming);
  }
  return arming;
}

/** Arms every page the context opens from now on (popups, a second tab), as its first page was. */
export function armNewPages(context: BrowserContext): void {
  context.on("targetcreated", (target) => {
    if (target.type() !== "page") return;
    target
      .page()
      .then((page) => page && armAuthenticator(page))
      .catch(() => undefined);
  });
}

/** Puts passkeys in the page's authenticator: the site's passkey sign-in finds them. */
export async function loadPasskeys(page: Page, passkeys: VirtualPasskey[]): Promise<void> {
  const { cdp, authenticatorId } = await armAuthenticator(page);
  for (const credential of passkeys) await cdp.send("WebAuthn.addCredential", { authenticatorId, credential });
}

/** The passkeys the page's authenticator holds now: those a site created, those loaded, with their counters. */
export async function readPasskeys(page: Page): Promise<VirtualPasskey[]> {
  const { cdp, authenticatorId } = await armAuthenticator(page);
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  return credentials.map((c) => ({
    credentialId: c.credentialId,
    rpId: c.rpId ?? "",
    privateKey: c.privateKey,
    userHandle: c.userHandle,
    signCount: c.signCount,
    isResidentCredential: c.isResidentCredential,
  }));
}
