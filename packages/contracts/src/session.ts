import { Type, type Static } from "@sinclair/typebox";
import { componentRef, describedLoosely } from "./schema-refs";
import { stringEnum } from "./string-enum";
/** A cookie as the API returns it. `expires` is Unix time in seconds; -1 marks a session cookie. */
export const cookieSchema = Type.Object({
  name: Type.String(),
  value: Type.String({ description: "Secret: the session itself." }),
  domain: Type.String(),
  path: Type.String(),
  expires: Type.Number({ description: "Unix time in seconds; -1 for a session cookie." }),
  httpOnly: Type.Boolean(),
  secure: Type.Boolean(),
  sameSite: stringEnum(["Strict", "Lax", "None"]),
});
export type Cookie = Static<typeof cookieSchema>;
const cookieRef = componentRef("Cookie", cookieSchema);

// An index of an object store. The OpenAPI document says only "an object" of it (the service hands it on
// to Playwright unread); its type says what Playwright writes.
const indexedDbIndexSchema = Type.Object({
  name: Type.String(),
  keyPath: Type.Optional(Type.String()),
  keyPathArray: Type.Optional(Type.Array(Type.String())),
  multiEntry: Type.Boolean(),
  unique: Type.Boolean(),
});

/**
 * An IndexedDB database of an origin, in the shape Playwright's `storageState({ indexedDB: true })` writes
 * and `newContext({ storageState })` restores. A record's key is given only for stores without a keyPath;
 * `value`/`key` hold JSON-like data, `valueEncoded`/`keyEncoded` anything else (dates, binary) in
 * Playwright's serialized form.
 */
export const indexedDbDatabaseSchema = Type.Object({
  name: Type.String(),
  version: Type.Number(),
  stores: Type.Array(
    Type.Object({
      name: Type.String(),
      keyPath: Type.Optional(Type.String()),
      keyPathArray: Type.Optional(Type.Array(Type.String())),
      autoIncrement: Type.Boolean(),
      indexes: Type.Array(describedLoosely(indexedDbIndexSchema, { type: "object" })),
      records: Type.Array(
        Type.Object({
          key: Type.Optional(Type.Unknown()),
          keyEncoded: Type.Optional(Type.Unknown()),
          value: Type.Optional(Type.Unknown()),
          valueEncoded: Type.Optional(Type.Unknown()),
        }),
      ),
    }),
  ),
});
export type IndexedDbDatabase = Static<typeof indexedDbDatabaseSchema>;

export const storageStateSchema = Type.Object(
  {
    cookies: Type.Array(cookieRef),
    origins: Type.Array(
      Type.Object({
        origin: Type.String(),
        localStorage: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
        indexedDB: Type.Optional(
          Type.Array(indexedDbDatabaseSchema, {
            description:
              "The origin's IndexedDB databases (client SDKs such as Firebase Auth keep their tokens there), as Playwright's " +
              "`storageState({ indexedDB: true })` writes them; `newContext({ storageState })` restores them.",
          }),
        ),
      }),
    ),
  },
  { description: "Playwright's storageState: `browser.newContext({ storageState })` loads it unchanged." },
);
export type StorageState = Static<typeof storageStateSchema>;

export const httpCredentialsSchema = Type.Object(
  { username: Type.String(), password: Type.String(), origin: Type.String() },
  {
    description:
      "Only where the site signs in by HTTP authentication (a Basic or Digest challenge) and keeps no session beyond it: Playwright's " +
      "`newContext({ httpCredentials })` option, which sends them again. Secret: the caller's own credentials for that origin.",
  },
);
/** Playwright's `httpCredentials` context option: the username and password a site's HTTP authentication takes, for its origin. */
export type HttpCredentials = Static<typeof httpCredentialsSchema>;

/** What a successful login answers (spec §2.2), plus the full storageState: the OpenAPI document's Session. */
export const sessionSchema = Type.Object({
  cookies: Type.Array(cookieRef),
  origins: Type.Array(Type.String(), { description: "Origins the login visited." }),
  httpCredentials: Type.Optional(httpCredentialsSchema),
  userAgent: Type.Optional(
    Type.String({
      description:
        "The User-Agent of the browser that made the session. Some sites bind a session to it (another User-Agent is signed out): a browser " +
        "that uses the session sends it, as Playwright's `newContext({ userAgent })` does.",
    }),
  ),
  storageState: storageStateSchema,
});
export type SessionResponse = Static<typeof sessionSchema>;

/**
 * A session as the worker captured it: what the API answers, and the page the login ended on, signed in.
 * `signedInPage` is kept (encrypted, with the session) for the session check, which fetches it with the
 * session's cookies; it is never part of an API answer.
 */
export interface CapturedSession extends SessionResponse {
  signedInPage?: string;
}

/** The API's part of a captured session: `signedInPage` left out. */
export function answerOf(session: CapturedSession): SessionResponse {
  const { signedInPage: _kept, ...answer } = session;
  return answer;
}

/**
 * The site's memory of a credential's browser, kept encrypted with the credential and never in an answer:
 * the long-lived cookies it set to trust the device (brought into the next login), and the keys
 * (`domain|path|name`) of those found to carry a session instead (left out, without looking again).
 */
export interface RememberedDevice {
  cookies: Cookie[];
  passOver: string[];
}
