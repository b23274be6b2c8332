import { createPrivateKey, type JsonWebKey, type KeyObject } from "node:crypto";
import { isIP } from "node:net";
import {
  compileValidator,
  cxfItemSchema,
  cxfPasskeySchema,
  type CxfPasskey,
  type FieldError,
  type PasskeyImport,
  type PasskeyKey,
} from "@authsvc/contracts";
import { registrableDomain } from "@authsvc/egress";

const validateCxfPasskey = compileValidator<CxfPasskey>(cxfPasskeySchema);
const validateCxfItem = compileValidator<{ credentials: Array<{ type: string }> }>(cxfItemSchema);
const AT = "/import";

/** The fields of a passkey before its key is read: where each came from, for the errors that name it. */
interface Given {
  credentialId: { value: string; field: string };
  privateKey: { value: string | Record<string, unknown>; field: string };
  rpId: { value: string; field: string };
  userHandle: { value: string; field: string };
  signCount: number;
}

export type PasskeyImportResult = { ok: true; key: PasskeyKey } | { ok: false; errors: FieldError[] };

/**
 * A passkey the caller brought (`import` of POST /v1/credentials/{id}/passkeys, its shape already checked by
 * the request schema), as the virtual authenticator holds one: its key read and checked to be a private key
 * the authenticator signs with (PASSKEY_ALGORITHMS), its relying party checked to be the login page's host or a parent domain of it
 * within its registrable domain (`loginHost`), its ids decoded. Every error names its field (a JSON pointer
 * under `/import`) and never carries the key.
 */
export function readPasskeyImport(given: PasskeyImport, loginHost: string): PasskeyImportResult {
  const fields = given.cxf !== undefined ? fromCxf(given) : fromFields(given);
  if (!fields.ok) return fields;
  const { credentialId, privateKey, rpId, userHandle, signCount } = fields.value;
  const errors: FieldError[] = [];
  const id = bytes(credentialId.value);
  if (!id || id.length < 16 || id.length > 1023)
    errors.push({ field: credentialId.field, message: "must be base64url of 16 to 1023 bytes" });
  const handle = bytes(userHandle.value);
  if (!handle || handle.length > 64)
    errors.push({ field: userHandle.field, message: "must be base64url of 1 to 64 bytes" });
  const rpError = relyingPartyError(rpId.value.toLowerCase(), loginHost);
  if (rpError) errors.push({ field: rpId.field, message: rpError });
  const key = readPrivateKey(privateKey.value);
  if (typeof key === "string") errors.push({ field: privateKey.field, message: key });
  if (errors.length > 0 || typeof key === "string") return { ok: false, errors };
  return {
    ok: true,
    key: {
      credentialId: id!.toString("base64"),
      rpId: rpId.value.toLowerCase(),
      privateKey: key.export({ type: "pkcs8", format: "der" }).toString("base64"),
      userHandle: handle!.toString("base64"),
      signCount,
      isResidentCredential: true,
    },
  };
}

/** The raw fields: all four required, and nothing of a CXF passkey beside them. */
function fromFields(given: PasskeyImport): { ok: true; value: Given } | { ok: false; errors: FieldError[] } {
  const missing = (["credentialId", "privateKey", "rpId", "userHandle"] as const).filter((f) => given[f] === undefined);
  if (missing.length > 0)
    return {
      ok: false,
      errors: missing.map((f) => ({ field: `${AT}/${f}`, message: "is required (or send the passkey as `cxf`)" })),
    };
  return {
    ok: true,
    value: {
      credentialId: { value: given.credentialId!, field: `${AT}/credentialId` },
      privateKey: { value: given.privateKey!, field: `${AT}/privateKey` },
      rpId: { value: given.rpId!, field: `${AT}/rpId` },
      userHandle: { value: given.userHandle!, field: `${AT}/userHandle` },
      signCount: given.signCount ?? 0,
    },
  };
}

/**
 * A CXF passkey credential, or an item that holds exactly one (its other credentials are not ours to
 * import). Alone in `import`. Its counter is 0: the format exports none, and an importer must start at 0.
 */
function fromCxf(given: PasskeyImport): { ok: true; value: Given } | { ok: false; errors: FieldError[] } {
  const beside = Object.keys(given).filter((f) => f !== "cxf");
  if (beside.length > 0)
    return {
      ok: false,
      errors: beside.map((f) => ({
        field: `${AT}/${f}`,
        message: "is not sent with `cxf`: the CXF passkey carries it",
      })),
    };
  const cxf = given.cxf!;
  let at = `${AT}/cxf`;
  let passkey: unknown = cxf;
  if ("credentials" in cxf) {
    const item = validateCxfItem(cxf);
    if (!item.ok) return { ok: false, errors: under(at, item.errors) };
    const passkeys = item.value.credentials.flatMap((c, i) => (c.type === "passkey" ? [i] : []));
    if (passkeys.length !== 1) {
      return {
        ok: false,
        errors: [
          {
            field: `${at}/credentials`,
            message:
              passkeys.length === 0
                ? 'holds no passkey (a credential of type "passkey")'
                : `holds ${passkeys.length} passkeys; import one at a time`,
          },
        ],
      };
    }
    at = `${at}/credentials/${passkeys[0]}`;
    passkey = item.value.credentials[passkeys[0]!];
  }
  const checked = validateCxfPasskey(passkey);
  if (!checked.ok) return { ok: false, errors: under(at, checked.errors) };
  const p = checked.value;
  return {
    ok: true,
    value: {
      credentialId: { value: p.credentialId, field: `${at}/credentialId` },
      privateKey: { value: p.key, field: `${at}/key` },
      rpId: { value: p.rpId, field: `${at}/rpId` },
      userHandle: { value: p.userHandle, field: `${at}/userHandle` },
      signCount: 0,
    },
  };
}

const under = (at: string, errors: FieldError[]): FieldError[] =>
  errors.map((e) => ({ ...e, field: e.field === "/" ? at : `${at}${e.field}` }));

/** base64url or base64, padded or not; null when it is neither (a round trip must give the same bytes). */
function bytes(text: string): Buffer | null {
  const standard = text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (!/^[A-Za-z0-9+/]+$/.test(standard) || standard.length % 4 === 1) return null;
  const out = Buffer.from(standard, "base64");
  return out.toString("base64").replace(/=+$/, "") === standard ? out : null;
}

/** What the service's authenticator (Chromium's virtual one) signs with: the key types its import takes. */
export const PASSKEY_ALGORITHMS = "ES256 (ECDSA on P-256), EdDSA (Ed25519) or RS256 (RSA of 2048 bits or more)";

/**
 * The key as a private key of an algorithm the authenticator signs with (PASSKEY_ALGORITHMS), or why it is
 * not one (never the key's own text: Node's messages are not passed on). A string is PEM or base64url
 * PKCS#8 DER; an object, a JWK.
 */
function readPrivateKey(given: string | Record<string, unknown>): KeyObject | string {
  let key: KeyObject;
  try {
    if (typeof given !== "string") key = createPrivateKey({ key: given as JsonWebKey, format: "jwk" });
    else if (given.trimStart().startsWith("-----BEGIN")) key = createPrivateKey({ key: given, format: "pem" });
    else {
      const der = bytes(given.trim());
      if (!der) return "must be a PKCS#8 private key: base64url of its DER bytes, PEM, or a JWK";
      key = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
    }
  } catch {
    return typeof given === "string"
      ? "is not a PKCS#8 private key (a public key, a certificate or another encoding is not one)"
      : "is not a private JWK (a key with its private part, `d`)";
  }
  const { asymmetricKeyType: type, asymmetricKeyDetails: details } = key;
  if (type === "ec" && details?.namedCurve === "prime256v1") return key;
  if (type === "ed25519") return key;
  if (type === "rsa" && (details?.modulusLength ?? 0) >= 2048) return key;
  const found =
    type === "ec"
      ? `an EC key on ${details?.namedCurve ?? "another curve"}`
      : type === "rsa"
        ? `an RSA key of ${details?.modulusLength} bits`
        : `a${type === "x25519" || type === "x448" || type === "ed448" ? "n" : ""} ${type ?? "unknown"} key`;
  return `must be an ${PASSKEY_ALGORITHMS} private key, what the service's authenticator signs with; this is ${found}`;
}

/**
 * Why `rpId` cannot be the relying party of a passkey for a login page on `host`, or null: a relying party
 * is the page's host or a parent domain of it, no higher than the host's registrable domain (never a public
 * suffix), and never an IP address (WebAuthn has none).
 */
export function relyingPartyError(rpId: string, host: string): string | null {
  if (isIP(host) || isIP(rpId))
    return `must be a domain name; the credential's login page is on ${host}, and a passkey cannot be used on an IP address`;
  const site = registrableDomain(host);
  const within = (child: string, parent: string) => child === parent || child.endsWith(`.${parent}`);
  if (!within(host, rpId) || !within(rpId, site))
    return `must be the credential's site: ${host}${host === site ? "" : ` or a parent domain of it up to ${site}`}`;
  return null;
}
