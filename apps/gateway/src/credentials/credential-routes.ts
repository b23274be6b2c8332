import { Router, type Request, type Response } from "express";
import {
  compileValidator,
  credentialListQuerySchema,
  type CredentialListQuery,
  credentialMethods,
  passkeyMethod,
  credentialStatus,
  entryLinkRequestSchema,
  passkeyEnrolRequestSchema,
  refreshRequestSchema,
  verifyRequestSchema,
  type CredentialResource,
} from "@authsvc/contracts";
import type { Database } from "@authsvc/db";
import type { SessionCache } from "@authsvc/queue";
import { ApiError } from "../http/api-error";
import type { GatewayMetrics } from "../http/metrics";
import type { AuthAnswer, AuthService } from "../auth/auth-service";
import { authCall, countedAnswer, pendingOrSession } from "../auth/send-answer";
import { sessionExpiresAt } from "@authsvc/jobs";
import { readPasskeyImport } from "./passkey-import";

const validateRefresh = compileValidator(refreshRequestSchema);
const validateVerify = compileValidator(verifyRequestSchema);
const CREDENTIAL_ID = /^cred_[0-9A-Za-z]{22}$/;
const PASSKEY_ID = /^pk_[0-9A-Za-z]{22}$/;
const validateEnrol = compileValidator(passkeyEnrolRequestSchema);
const validateListQuery = compileValidator<CredentialListQuery>(credentialListQuerySchema);
const ENTRY_LINK_ID = /^elink_[0-9A-Za-z]{22}$/;
const validateEntryLink = compileValidator(entryLinkRequestSchema);
const PAGE = 100;

type CredentialRow = NonNullable<Awaited<ReturnType<Database["credentials"]["findMetadata"]>>>;

function resource(row: CredentialRow): CredentialResource {
  return {
    credentialId: row.id,
    site: row.siteOrigin,
    loginPage: row.loginPage,
    loginUrl: row.loginUrl,
    username: row.username,
    collectionId: row.collection?.externalId ?? null,
    createdAt: row.createdAt.toISOString(),
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    status: credentialStatus(row),
    lastError: row.lastErrorCode ?? null,
    deviceRememberedAt: row.deviceSavedAt?.toISOString() ?? null,
    region: row.region ?? null,
  };
}

/** A session a stored credential signed in with (refresh, verify): 200 with the credential and expiry, or 202. */
function sendSession(req: Request, res: Response, answer: AuthAnswer, credentialId: string): void {
  const done = pendingOrSession(req, res, answer);
  if (!done) return;
  const expiresAt = sessionExpiresAt(done.session);
  res.status(200).json({ ...done.session, credentialId, ...(expiresAt ? { expiresAt } : {}) });
}

/**
 * Stored credentials (metadata only: the secret leaves the database for a login and nothing else) and
 * refresh, which logs in again with a credential's stored secret and replaces its cached session.
 */
export function credentialRoutes(
  db: Database,
  cache: SessionCache,
  auth: AuthService,
  maxWaitMs: number,
  metrics: GatewayMetrics,
): Router {
  const r = Router();
  const orgOf = (locals: Record<string, unknown>) => locals.orgId as string;

  r.get("/credentials", async (req, res) => {
    const query = validateListQuery(req.query);
    if (!query.ok) throw ApiError.invalid(query.errors);
    const { before, username } = query.value;
    const site = query.value.site === undefined ? undefined : new URL(query.value.site).origin;
    const rows = await db.credentials.list(orgOf(res.locals), { limit: PAGE + 1, before, site, username });
    if (!rows)
      throw ApiError.invalid([
        {
          field: "/before",
          message: "names no credential of yours (removed since that page?); start again from the first page",
        },
      ]);
    const page = rows.slice(0, PAGE).map(resource);
    // The next page keeps the filters.
    const next = new URLSearchParams({
      ...(site ? { site } : {}),
      ...(username !== undefined ? { username } : {}),
      before: page[page.length - 1]?.credentialId ?? "",
    });
    res.json({ credentials: page, next: rows.length > PAGE ? `${req.baseUrl}/credentials?${next}` : null });
  });

  // Credentials an end user types themselves, on a hosted page the caller sends them to.
  r.post("/credentials/entry-links", async (req, res) => {
    const checked = validateEntryLink(req.body ?? {});
    if (!checked.ok) throw ApiError.invalid(checked.errors);
    const link = await auth.createEntryLink(orgOf(res.locals), checked.value);
    res.status(201).location(`${req.baseUrl}/entry-links/${link.linkId}`).json(link);
  });

  r.get("/entry-links/:id", async (req, res) => {
    const link = ENTRY_LINK_ID.test(req.params.id) ? await auth.entryLink(orgOf(res.locals), req.params.id) : null;
    if (!link) throw new ApiError("not_found", "No such entry link.");
    res.json(link);
  });

  r.get("/credentials/:id", async (req, res) => {
    const orgId = orgOf(res.locals);
    const row = CREDENTIAL_ID.test(req.params.id) ? await db.credentials.findMetadata(orgId, req.params.id) : null;
    if (!row) throw new ApiError("not_found", "No such credential.");
    const [secret, passkeys] = await Promise.all([
      db.credentials.secret(orgId, row.id),
      db.passkeys.list(orgId, row.id),
    ]);
    res.json({
      ...resource(row),
      methods: credentialMethods(secret && !secret.awaitsPassword ? secret.method : null, passkeys),
    });
  });

  // Adds a passkey to the credential's account: signs in with its stored secret, then adds one on the site's
  // settings page; or (`import`) keeps one the caller holds, with no browser run.
  r.post("/credentials/:id/passkeys", async (req, res) => {
    const checked = validateEnrol(req.body ?? {});
    if (!checked.ok) throw ApiError.invalid(checked.errors);
    const orgId = orgOf(res.locals);
    const row = CREDENTIAL_ID.test(req.params.id) ? await db.credentials.findMetadata(orgId, req.params.id) : null;
    if (!row) throw new ApiError("not_found", "No such credential.");
    if (checked.value.import !== undefined) {
      const { import: given, ...beside } = checked.value;
      const others = Object.keys(beside);
      if (others.length > 0)
        throw ApiError.invalid(
          others.map((f) => ({
            field: `/${f}`,
            message: "is not sent with `import`: an imported passkey runs no browser",
          })),
        );
      const read = readPasskeyImport(given, new URL(row.loginUrl).hostname);
      if (!read.ok) throw ApiError.invalid(read.errors);
      const kept = await db.transaction((tx) => tx.passkeys.import(orgId, row.id, read.key));
      if (!kept) throw new ApiError("not_found", "No such credential.");
      if ("held" in kept) {
        throw new ApiError(
          "conflict",
          `This credential holds that passkey, or another of the same account of ${kept.held.rpId}, already: ${kept.held.id}. DELETE /v1/credentials/${row.id}/passkeys/${kept.held.id} first to import this one instead.`,
        );
      }
      res
        .status(201)
        .location(`${req.baseUrl}/credentials/${row.id}`)
        .json({ passkey: passkeyMethod(kept.added), credentialId: row.id });
      return;
    }
    const answer = await countedAnswer(
      metrics,
      () => auth.enrolPasskey(orgId, row.id, checked.value, authCall(req, res, maxWaitMs)),
      "passkey_enrol",
    );
    const done = pendingOrSession(req, res, answer);
    if (!done) return;
    // The passkey this job added (the job's record names its session; the passkey, its job).
    const passkey = done.jobId ? await db.passkeys.ofJob(orgId, done.jobId) : null;
    if (!passkey) throw new ApiError("internal_error", "The passkey was added but its record was not found.");
    const expiresAt = sessionExpiresAt(done.session);
    res
      .status(201)
      .location(`${req.baseUrl}/credentials/${row.id}`)
      .json({
        passkey: passkeyMethod(passkey),
        ...done.session,
        credentialId: row.id,
        ...(expiresAt ? { expiresAt } : {}),
      });
  });

  // Forgets one of its passkeys here; the site still lists it (remove it there too).
  r.delete("/credentials/:id/passkeys/:passkeyId", async (req, res) => {
    const orgId = orgOf(res.locals);
    const removed =
      CREDENTIAL_ID.test(req.params.id) && PASSKEY_ID.test(req.params.passkeyId)
        ? await db.passkeys.remove(orgId, req.params.id, req.params.passkeyId)
        : false;
    if (!removed) throw new ApiError("not_found", "No such passkey of this credential.");
    res.status(204).end();
  });

  r.delete("/credentials/:id", async (req, res) => {
    const orgId = orgOf(res.locals);
    const fingerprints = CREDENTIAL_ID.test(req.params.id) ? await db.credentials.remove(orgId, req.params.id) : null;
    if (!fingerprints) throw new ApiError("not_found", "No such credential.");
    // Its sessions go with it, cached ones included: nothing logged in with it is served any more.
    await Promise.all(fingerprints.map((fp) => cache.delete(orgId, fp)));
    res.status(204).end();
  });

  // Forgets the site's memory of the credential's browser: its next login is a new device's (the site may
  // ask its second factor again). The sessions stay.
  r.delete("/credentials/:id/device", async (req, res) => {
    const orgId = orgOf(res.locals);
    const row = CREDENTIAL_ID.test(req.params.id) ? await db.credentials.findMetadata(orgId, req.params.id) : null;
    if (!row) throw new ApiError("not_found", "No such credential.");
    await db.credentialBrowsers.saveDevice(orgId, row.id, null);
    res.status(204).end();
  });

  /**
   * A credential named by domain and username: the one of that login page, or the only one of that
   * origin when `domain` names no login page the org has; several there is a 409 that lists them.
   */
  async function oneByIdentity(orgId: string, domain: string, username: string, collectionExternalId?: string) {
    let url: URL;
    try {
      url = new URL(domain);
    } catch {
      throw ApiError.invalid([{ field: "/domain", message: "is not a valid URL" }]);
    }
    const rows = await db.credentials.findByIdentity(orgId, { url: url.toString(), username, collectionExternalId });
    if (rows.length > 1) {
      throw new ApiError(
        "conflict",
        `${username} has credentials on several login pages of ${url.origin} (${rows.map((r) => r.loginPage).join(", ")}); send the login page as domain, or the credentialId.`,
      );
    }
    return rows[0] ?? null;
  }

  r.post("/refresh", async (req, res) => {
    const checked = validateRefresh(req.body);
    if (!checked.ok) throw ApiError.invalid(checked.errors);
    const body = checked.value;
    const orgId = orgOf(res.locals);
    if (body.credentialId && (body.domain || body.username || body.collectionId)) {
      throw ApiError.invalid([
        { field: "/credentialId", message: "name the credential by credentialId, or by domain and username; not both" },
      ]);
    }
    if (!body.credentialId && !(body.domain && body.username)) {
      throw ApiError.invalid([
        {
          field: "/credentialId",
          message: "is required (or domain and username, with collectionId if the login used one)",
        },
      ]);
    }
    const row = body.credentialId
      ? await db.credentials.findMetadata(orgId, body.credentialId)
      : await oneByIdentity(orgId, body.domain!, body.username!, body.collectionId);
    if (!row) throw new ApiError("not_found", "No such credential.");
    const answer = await countedAnswer(
      metrics,
      () => auth.refresh(orgId, row.id, authCall(req, res, maxWaitMs), body.allowHandoff === true, body.region),
      "refresh",
    );
    sendSession(req, res, answer, row.id);
  });

  r.post("/credentials/:id/verify", async (req, res) => {
    const checked = validateVerify(req.body ?? {});
    if (!checked.ok) throw ApiError.invalid(checked.errors);
    if (checked.value.link !== undefined && checked.value.code !== undefined)
      throw ApiError.invalid([{ field: "/code", message: "send a link or a code, not both" }]);
    const orgId = orgOf(res.locals);
    const row = CREDENTIAL_ID.test(req.params.id) ? await db.credentials.findMetadata(orgId, req.params.id) : null;
    if (!row) throw new ApiError("not_found", "No such credential.");
    const answer = await countedAnswer(
      metrics,
      () => auth.verify(orgId, row.id, checked.value, authCall(req, res, maxWaitMs)),
      "verify",
    );
    sendSession(req, res, answer, row.id);
  });

  return r;
}
