import { randomInt } from "node:crypto";
import { type Request, type Response, Router, urlencoded } from "express";
import type Provider from "oidc-provider";
import type { SiteMail } from "../outbox";
import {
  ACME_MESSAGES,
  blockedPage,
  codeMail,
  consentPage,
  emailCodePage,
  expiredPage,
  loginPage,
  totpPage,
} from "./acme-pages";
import type { AcmeUser, AcmeUsers } from "./users";

/** Where the provider's emailed codes go: the test-sites Outbox, or a test's stand-in. */
export interface Mailer {
  mail(message: SiteMail): Promise<void>;
}

/** A sign-in past the password, waiting for its second step (by interaction uid, which only its browser's cookie opens). */
interface Pending {
  user: AcmeUser;
  step: "totp" | "email";
  code?: string;
}

/** Grants an account gave a client, so a later authorization (even in a new session) skips the consent page. */
export class RememberedGrants {
  private readonly ids = new Map<string, string>();
  get(accountId: string, clientId: string): string | undefined {
    return this.ids.get(`${accountId}\n${clientId}`);
  }
  set(accountId: string, clientId: string, grantId: string): void {
    this.ids.set(`${accountId}\n${clientId}`, grantId);
  }
}

/**
 * Acme ID's own pages for oidc-provider's interactions (devInteractions is off): login, a second step,
 * the blocked wall, consent. Mounted before provider.callback().
 */
export function interactionRoutes(
  provider: Provider,
  users: AcmeUsers,
  mailer: Mailer,
  clientNames: Map<string, string>,
  grants: RememberedGrants,
): Router {
  const r = Router();
  const pending = new Map<string, Pending>();
  const form = urlencoded({ extended: false });
  const field = (req: Request, name: string) => String((req.body as Record<string, unknown> | undefined)?.[name] ?? "");

  // Every handler reads the interaction first: a missing or expired interaction cookie gets the same page.
  const handle =
    (
      fn: (
        req: Request,
        res: Response,
        details: Awaited<ReturnType<Provider["interactionDetails"]>>,
      ) => Promise<unknown>,
    ) =>
    async (req: Request, res: Response) => {
      let details;
      try {
        details = await provider.interactionDetails(req, res);
      } catch {
        return res.status(400).type("html").send(expiredPage());
      }
      await fn(req, res, details);
    };
  const clientName = (clientId: unknown) => clientNames.get(String(clientId)) ?? String(clientId);
  const signIn = (req: Request, res: Response, user: AcmeUser) =>
    provider.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });

  r.get(
    "/interaction/:uid",
    handle(async (req, res, { uid, prompt, params, session }) => {
      if (prompt.name === "login")
        return res
          .type("html")
          .send(loginPage(uid, clientName(params.client_id), undefined, String(params.login_hint ?? "")));
      const user = users.bySub(session?.accountId ?? "");
      // An organization's policy that does not let its users grant this app access: the provider answers the site access_denied.
      if (user?.consentDenied) {
        return provider.interactionFinished(
          req,
          res,
          { error: "access_denied", error_description: "The administrator has not approved this app." },
          { mergeWithLastSubmission: false },
        );
      }
      const scopes = (prompt.details.missingOIDCScope as string[] | undefined) ?? String(params.scope ?? "").split(" ");
      res.type("html").send(consentPage(uid, clientName(params.client_id), user?.email ?? "", scopes));
    }),
  );

  r.post(
    "/interaction/:uid/login",
    form,
    handle(async (req, res, { uid, params }) => {
      const email = field(req, "email");
      const user = users.checkPassword(email, field(req, "password"));
      if (!user)
        return res.type("html").send(loginPage(uid, clientName(params.client_id), ACME_MESSAGES.wrongPassword, email));
      if (user.blocked) return res.status(403).type("html").send(blockedPage());
      if (user.totp) {
        pending.set(uid, { user, step: "totp" });
        return res.redirect(303, `/interaction/${uid}/totp`);
      }
      if (user.emailCode) {
        const code = String(randomInt(100000, 1000000));
        pending.set(uid, { user, step: "email", code });
        // As a real provider, a mail that could not be sent does not fail the page (the user can't see the code, though).
        await mailer.mail(codeMail(user.email, code)).catch(() => undefined);
        return res.redirect(303, `/interaction/${uid}/email-code`);
      }
      await signIn(req, res, user);
    }),
  );

  const step = (
    kind: Pending["step"],
    render: (uid: string, p: Pending, error?: string) => string,
    check: (p: Pending, code: string) => boolean,
  ) => {
    r.get(
      `/interaction/:uid/${kind === "totp" ? "totp" : "email-code"}`,
      handle(async (_req, res, { uid }) => {
        const p = pending.get(uid);
        if (p?.step !== kind) return res.redirect(303, `/interaction/${uid}`);
        res.type("html").send(render(uid, p));
      }),
    );
    r.post(
      `/interaction/:uid/${kind === "totp" ? "totp" : "email-code"}`,
      form,
      handle(async (req, res, { uid }) => {
        const p = pending.get(uid);
        if (p?.step !== kind) return res.redirect(303, `/interaction/${uid}`);
        if (!check(p, field(req, "code"))) return res.type("html").send(render(uid, p, ACME_MESSAGES.wrongCode));
        pending.delete(uid);
        await signIn(req, res, p.user);
      }),
    );
  };
  step(
    "totp",
    (uid, _p, error) => totpPage(uid, error),
    (p, code) => users.checkTotp(p.user, code),
  );
  step(
    "email",
    (uid, p, error) => emailCodePage(uid, p.user.email, error),
    (p, code) => p.code === code.trim(),
  );

  r.post(
    "/interaction/:uid/confirm",
    form,
    handle(async (req, res, { prompt, params, session, grantId }) => {
      const accountId = session?.accountId;
      const clientId = String(params.client_id);
      if (!accountId || prompt.name !== "consent") return res.status(400).type("html").send(expiredPage());
      const grant =
        (grantId ? await provider.Grant.find(grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
      const details = prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(" "));
      if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {}))
        grant.addResourceScope(indicator, scopes.join(" "));
      const saved = await grant.save();
      grants.set(accountId, clientId, saved);
      await provider.interactionFinished(req, res, { consent: { grantId: saved } }, { mergeWithLastSubmission: true });
    }),
  );

  r.post(
    "/interaction/:uid/abort",
    form,
    handle(async (req, res) => {
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The user cancelled signing in." },
        { mergeWithLastSubmission: false },
      );
    }),
  );
  return r;
}
