import { generateKeyPairSync, randomBytes } from "node:crypto";
import express, { json } from "express";
import Provider, { type JWK } from "oidc-provider";
import { interactionRoutes, type Mailer, RememberedGrants } from "./interactions";
import { memoryAdapter } from "./memory-adapter";
import { AcmeUsers } from "./users";

/** A relying party registered with Acme ID. */
export interface AcmeClient {
  clientId: string;
  clientSecret: string;
  /** Shown on the sign-in and consent pages, as providers show the app's registered name. */
  name: string;
  /** Its callback, under each host name the site is visited by (its loopback address, `localhost`). */
  redirectUris: string[];
}

// One signing key per process: RSA key generation is the slowest part of start-up, and fixtures need no rotation.
let signingKey: JWK | undefined;
const jwk = () =>
  (signingKey ??= {
    ...generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }),
    kid: "acme-fixture",
    use: "sig",
    alg: "RS256",
  } as JWK);

/**
 * "Acme ID": a real OpenID Connect provider (oidc-provider) with server-rendered pages of its own, and
 * a JSON control surface under /__fixture/ for the tests.
 */
export function createAcmeId(issuer: string, clients: AcmeClient[], users: AcmeUsers, mailer: Mailer) {
  const grants = new RememberedGrants();
  const provider = new Provider(issuer, {
    adapter: memoryAdapter(),
    clients: clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      client_name: c.name,
      redirect_uris: c.redirectUris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    })),
    jwks: { keys: [jwk()] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    // Fixed lifetimes (the defaults print a notice each time one is used); a session and its grants outlive any test run.
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * 86_400,
      Grant: 14 * 86_400,
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The RPs read email from the id token, as most do; without this it would only be at the userinfo endpoint.
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => {
      const user = users.bySub(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: user.email, email_verified: true, name: user.email.split("@")[0] }),
      };
    },
    // Consent is remembered per account and client, not per session: a new session's login skips it too.
    loadExistingGrant: async (ctx) => {
      const { session, client, result } = ctx.oidc;
      const grantId =
        (result?.consent as { grantId?: string } | undefined)?.grantId ??
        session?.grantIdFor(client!.clientId) ??
        grants.get(session?.accountId ?? "", client!.clientId);
      return grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
  });

  const app = express();
  app.disable("x-powered-by");
  app.post("/__fixture/users", json(), (req, res) => {
    const body = (req.body ?? {}) as {
      email?: unknown;
      password?: unknown;
      totpSecret?: unknown;
      emailCode?: unknown;
      blocked?: unknown;
      consentDenied?: unknown;
    };
    if (typeof body.email !== "string" || typeof body.password !== "string")
      return res.status(400).json({ error: "email and password are required" });
    const user = users.add({
      email: body.email,
      password: body.password,
      totpSecret: typeof body.totpSecret === "string" ? body.totpSecret : undefined,
      emailCode: body.emailCode === true,
      blocked: body.blocked === true,
      consentDenied: body.consentDenied === true,
    });
    res.json({ email: user.email, sub: user.sub });
  });
  app.get("/__fixture/users/:email", (req, res) => {
    res.json({
      email: req.params.email.toLowerCase(),
      passwordSubmissions: users.passwordSubmissions(req.params.email),
    });
  });
  app.post("/__fixture/reset-counts", (_req, res) => {
    users.resetCounts();
    res.status(204).end();
  });
  app.use(interactionRoutes(provider, users, mailer, new Map(clients.map((c) => [c.clientId, c.name])), grants));
  app.use(provider.callback());
  return { app, provider };
}
