import * as ex from "./openapi-examples";
import { json, keyed, listOf, paramRef, rated, v1Errors } from "./openapi-responses";
import { credentialListQuerySchema } from "./credentials";
import { LOGIN_FAILURES, stillRunning } from "./openapi-session-paths";

/** Stored credentials: their list, entry links, devices, passkeys and verification. */
export const credentialPaths = {
  "/credentials": {
    get: {
      operationId: "listCredentials",
      tags: ["Credentials"],
      summary: "Your organization's stored credentials, newest first (metadata only, never a secret)",
      description:
        "Newest first by creation time, 100 a page; `next` is the link to the following page (it keeps the filters), null on the last. " +
        "A `before` that names no credential of the organization (removed since that page) is 400: start again from the first page.",
      parameters: [
        {
          name: "site",
          in: "query",
          required: false,
          schema: credentialListQuerySchema.properties.site,
          description:
            "Only this site's credentials: an origin (`https://app.example.com`); of a longer URL, its origin.",
        },
        {
          name: "username",
          in: "query",
          required: false,
          schema: credentialListQuerySchema.properties.username,
          description: "Only credentials of this username (exact).",
        },
        {
          name: "before",
          in: "query",
          required: false,
          schema: credentialListQuerySchema.properties.before,
          description: "Page on: the `next` link of the previous page.",
        },
      ],
      responses: {
        "200": listOf(
          "credentials",
          "Credential",
          '{"credentials": [...], "next": link or null} (100 a page)',
          ex.credential,
          { next: { type: ["string", "null"] } },
        ),
        ...v1Errors(["invalid_request"]),
      },
    },
  },
  "/credentials/entry-links": {
    post: {
      operationId: "createEntryLink",
      tags: ["Credentials"],
      summary: "A link where the end user types their own credentials for a site",
      description:
        "Answers a hosted page (`url`, on the dashboard; no API key needed) to send the end user to. They type their username and password (and " +
        "an authenticator's secret if they use one); the service signs in once with them — a step only they can do (a code, an approval, a CAPTCHA) " +
        "is handed to them on the hand-off page — stores the credential encrypted, and tells the organization by the `credential.created` webhook " +
        "and on `GET /v1/entry-links/{id}` (the `Location`). The caller never sees the password. A sign-in the site refuses shows them its words and lets " +
        "them try again, at most `maxTries` times in all. The link is spent once a credential is stored, and ends at `expiresAt` " +
        "(`expiresIn` seconds, default 86400, at most 604800). `domain` is checked as a target now and again when the sign-in runs. " +
        "Needs DASHBOARD_URL (501 `method_not_supported` without it).",
      parameters: [paramRef("IdempotencyKey")],
      requestBody: {
        required: true,
        content: json("EntryLinkRequest", {
          link: {
            summary: "A link for one site",
            value: { domain: "https://app.example.com/login", collectionId: "team-a" },
          },
        }),
      },
      responses: {
        "201": {
          description: "The link; `Location` names it.",
          headers: keyed("Location"),
          content: json("EntryLink", ex.entryLink),
        },
        ...v1Errors(["target_not_allowed", "method_not_supported"], { post: true, idempotent: true }),
      },
    },
  },
  "/entry-links/{id}": {
    get: {
      operationId: "getEntryLink",
      tags: ["Credentials"],
      summary: "An entry link's state: open, validating, needs_input, created (with the credential), failed or expired",
      parameters: [paramRef("EntryLinkId")],
      responses: {
        "200": { description: "The link.", headers: rated(), content: json("EntryLink", ex.entryLinkCreated) },
        ...v1Errors(["not_found"]),
      },
    },
  },
  "/credentials/{id}": {
    get: {
      operationId: "getCredential",
      tags: ["Credentials"],
      summary: "One stored credential",
      parameters: [paramRef("CredentialId")],
      responses: {
        "200": { description: "The credential.", headers: rated(), content: json("Credential", ex.credential) },
        ...v1Errors(["not_found"]),
      },
    },
    delete: {
      operationId: "deleteCredential",
      tags: ["Credentials"],
      summary: "Delete a credential, its stored secret and its sessions (cached ones included)",
      parameters: [paramRef("CredentialId")],
      responses: { "204": { description: "Deleted.", headers: rated() }, ...v1Errors(["not_found"]) },
    },
  },
  "/credentials/{id}/device": {
    delete: {
      operationId: "forgetCredentialDevice",
      tags: ["Credentials"],
      summary: "Forget the site's memory of the credential's browser (its remembered device)",
      description:
        'The service keeps the long-lived cookies a site set to trust the credential\'s browser (after a second factor, or "remember me"), encrypted, ' +
        "and brings them into the credential's next login or refresh, so the site need not ask what it asks a new device. This forgets them: the next " +
        "login is a new device's, and the site may ask its second factor again. The credential's sessions stay.",
      parameters: [paramRef("CredentialId")],
      responses: {
        "204": { description: "Forgotten (also when none was kept).", headers: rated() },
        ...v1Errors(["not_found"]),
      },
    },
  },
  "/credentials/{id}/passkeys": {
    post: {
      operationId: "enrolPasskey",
      tags: ["Credentials"],
      summary: "Add a passkey to the credential's account on its site, or import one you hold",
      description:
        "Signs in with the credential's stored secret (as a refresh does, with its second factor, or through its provider), opens the site's page where passkeys are added " +
        '(`settingsUrl`, or found by the words of the site\'s links — "Security", "Passkeys", "Settings" — in the languages the engine reads), ' +
        'clicks "Add a passkey" and lets the browser\'s authenticator make it (user verification satisfied). It counts once the site took it and it signed in once, in a browser of its own. The ' +
        "private key, credential id, user handle and sign counter are stored encrypted with the credential, never returned or logged; " +
        "`login_method: passkey` and refreshes sign in with it from then on, sending no password. The answer is the session of that sign-in, with the " +
        "passkey. `passkey_not_offered`: no page offers to add one; `passkey_rejected`: the site turned it down, or the new passkey did not sign in; " +
        "`no_stored_secret`: the credential never signed in.\n\n" +
        '**Import** (`{"import": …}`, alone): a passkey you already hold — its fields (`credentialId`, `privateKey`, `rpId`, `userHandle`, `signCount`), or `cxf`, a FIDO ' +
        "Credential Exchange Format passkey credential or an item holding one — is stored the same way, sealed, with no browser run: **201** `{passkey, credentialId}`. " +
        "Its key must be ES256 (ECDSA P-256), EdDSA (Ed25519) or RS256 (RSA, 2048 bits or more), as PKCS#8 (base64url DER, or PEM) or a private JWK; its `rpId` the " +
        "credential's login page host or a parent domain of it within its registrable domain. Anything else is 400 `invalid_request` whose `details` name the field " +
        "(`/import/privateKey`, `/import/cxf/rpId`, …); the key is never echoed. The same passkey (credential id), or another of the same account of the site (user handle), " +
        "again is 409 `conflict` naming the passkey held: delete it first to replace it. The site is first asked for it by the next `login_method: passkey` login " +
        "(`passkey_rejected` if it does not know it).",
      parameters: [paramRef("CredentialId"), paramRef("Prefer"), paramRef("IdempotencyKey")],
      requestBody: {
        required: false,
        content: json("PasskeyEnrolRequest", {
          found: { summary: "Found from the signed-in page", value: {} },
          given: {
            summary: "At the site's security settings",
            value: { settingsUrl: "https://app.example.com/settings/security" },
          },
          imported: { summary: "Import a passkey you hold, by its fields", value: ex.passkeyImportFields },
          cxf: { summary: "Import a Credential Exchange Format item's passkey", value: ex.passkeyImportCxf },
        }),
      },
      responses: {
        "201": {
          description:
            "Added, and signed in (an enrolment: the sign-in's session and the passkey); or imported (the passkey, no session).",
          headers: keyed("X-Job-Id", "Location"),
          content: json("PasskeyAdded", {
            enrolled: { summary: "Added on the site", value: ex.passkeyEnrolment },
            imported: { summary: "Imported", value: ex.passkeyImported },
          }),
        },
        "202": stillRunning,
        ...v1Errors(["not_found", "no_stored_secret", ...LOGIN_FAILURES], {
          post: true,
          idempotent: true,
          job: true,
        }),
      },
    },
  },
  "/credentials/{id}/passkeys/{passkeyId}": {
    delete: {
      operationId: "deletePasskey",
      tags: ["Credentials"],
      summary: "Forget one of the credential's passkeys",
      description:
        "The service forgets the passkey (its key is deleted); the site still lists it until it is removed there too. Refreshes use the password again once the credential holds no passkey.",
      parameters: [paramRef("CredentialId"), paramRef("PasskeyId")],
      responses: { "204": { description: "Forgotten.", headers: rated() }, ...v1Errors(["not_found"]) },
    },
  },
  "/credentials/{id}/verify": {
    post: {
      operationId: "verifyCredential",
      tags: ["Credentials"],
      summary: "Confirm the email of an account a signup left pending, then sign in with it",
      description:
        "For a credential a signup kept without signing in (status `pending_verification`, or `pending` after a refused confirmation). " +
        "`link`: the confirmation link the caller read in their own mailbox, opened in the browser first (the target rules apply to it); " +
        "`code`: the confirmation code, typed where the site asks for it after the password; an empty body (`{}`): the confirmation link that reached " +
        "the organization's inbox for that address since the signup (its mailbox, or the forwarding inbox). Then the ordinary login with the stored " +
        "secret; on success the credential is `active` and the answer is a refresh's. A refused link or code is `verification_failed`; no link in the inbox " +
        "yet is `verification_pending`; a credential that already signed in, or keeps no secret, is `conflict`.",
      parameters: [paramRef("CredentialId"), paramRef("Prefer"), paramRef("IdempotencyKey")],
      requestBody: {
        required: false,
        content: json("VerifyRequest", {
          link: {
            summary: "The link from your own mailbox",
            value: { link: "https://app.example.com/confirm?token=example-token" },
          },
          code: { summary: "The code from your own mailbox", value: { code: "482913" } },
          inbox: { summary: "Whatever reached the organization's inbox", value: {} },
        }),
      },
      responses: {
        "200": {
          description: "Confirmed and signed in.",
          headers: keyed("X-Job-Id"),
          content: json("StoredCredentialSession", ex.storedCredentialSession),
        },
        "202": stillRunning,
        ...v1Errors(["not_found", "conflict", "verification_pending", ...LOGIN_FAILURES], {
          post: true,
          idempotent: true,
          job: true,
        }),
      },
    },
  },
};
