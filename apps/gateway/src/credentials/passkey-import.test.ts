import { createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { compileValidator, passkeyEnrolRequestSchema, type PasskeyImport } from "@authsvc/contracts";
import { readPasskeyImport, relyingPartyError } from "./passkey-import";

const validate = compileValidator(passkeyEnrolRequestSchema);
const p256 = generateKeyPairSync("ec", { namedCurve: "P-256" });
const pkcs8 = p256.privateKey.export({ type: "pkcs8", format: "der" });
const id = randomBytes(32);
const handle = Buffer.from("user-42");
const raw = (over: Partial<PasskeyImport> = {}): PasskeyImport => ({
  credentialId: id.toString("base64url"),
  privateKey: pkcs8.toString("base64url"),
  rpId: "example.com",
  userHandle: handle.toString("base64url"),
  ...over,
});
const HOST = "app.example.com";
/** The request as the route reads it: the schema first, then the key. */
function read(body: unknown) {
  const checked = validate(body);
  if (!checked.ok) return { ok: false as const, errors: checked.errors };
  return readPasskeyImport(checked.value.import!, HOST);
}
const fields = (result: ReturnType<typeof read>) => (result.ok ? [] : result.errors.map((e) => e.field));

describe("readPasskeyImport", () => {
  it("reads an ES256 key in every encoding to the authenticator's form: PKCS#8 base64, ids base64, counter kept", () => {
    const pem = p256.privateKey.export({ type: "pkcs8", format: "pem" }) as string;
    const jwk = p256.privateKey.export({ format: "jwk" });
    for (const privateKey of [pkcs8.toString("base64url"), pkcs8.toString("base64"), pem, { ...jwk, kid: "k1" }]) {
      const result = read({ import: raw({ privateKey, signCount: 7 }) });
      expect(result).toEqual({
        ok: true,
        key: {
          credentialId: id.toString("base64"),
          rpId: "example.com",
          privateKey: pkcs8.toString("base64"),
          userHandle: handle.toString("base64"),
          signCount: 7,
          isResidentCredential: true,
        },
      });
    }
    expect(read({ import: raw({ rpId: "APP.example.com" }) })).toMatchObject({
      ok: true,
      key: { rpId: "app.example.com", signCount: 0 },
    });
  });

  it("reads a CXF passkey, alone or in its item, with its counter at 0", () => {
    const cxf = {
      type: "passkey",
      credentialId: id.toString("base64url"),
      rpId: "example.com",
      username: "ada",
      userDisplayName: "Ada",
      userHandle: handle.toString("base64url"),
      key: pkcs8.toString("base64url"),
      fido2Extensions: {},
    };
    const expected = {
      ok: true,
      key: {
        credentialId: id.toString("base64"),
        rpId: "example.com",
        privateKey: pkcs8.toString("base64"),
        userHandle: handle.toString("base64"),
        signCount: 0,
        isResidentCredential: true,
      },
    };
    expect(read({ import: { cxf } })).toEqual(expected);
    const item = {
      id: "aXRlbQ",
      title: "Example",
      creationAt: 1764633600,
      credentials: [{ type: "basic-auth", username: { fieldType: "string", value: "ada" } }, cxf],
    };
    expect(read({ import: { cxf: item } })).toEqual(expected);

    expect(fields(read({ import: { cxf: { ...cxf, key: undefined } } }))).toEqual(["/import/cxf/key"]);
    expect(fields(read({ import: { cxf: { ...cxf, extra: 1 } } }))).toEqual(["/import/cxf/extra"]);
    expect(
      fields(
        read({ import: { cxf: { ...item, credentials: [item.credentials[0], { ...cxf, rpId: "other.example" }] } } }),
      ),
    ).toEqual(["/import/cxf/credentials/1/rpId"]);
    expect(fields(read({ import: { cxf: { ...item, credentials: [item.credentials[0]] } } }))).toEqual([
      "/import/cxf/credentials",
    ]);
    expect(fields(read({ import: { cxf: { ...item, credentials: [cxf, cxf] } } }))).toEqual([
      "/import/cxf/credentials",
    ]);
    expect(fields(read({ import: { cxf, signCount: 3 } }))).toEqual(["/import/signCount"]);
  });

  it("takes the other algorithms the authenticator signs with: EdDSA (Ed25519) and RS256", () => {
    const ed = generateKeyPairSync("ed25519").privateKey;
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    for (const key of [ed, rsa]) {
      const der = key.export({ type: "pkcs8", format: "der" });
      expect(read({ import: raw({ privateKey: der.toString("base64url") }) })).toMatchObject({
        ok: true,
        key: { privateKey: der.toString("base64") },
      });
      expect(read({ import: raw({ privateKey: key.export({ format: "jwk" }) }) })).toMatchObject({
        ok: true,
        key: { privateKey: der.toString("base64") },
      });
    }
  });

  it("refuses what is not a private key of those algorithms, naming the field and never echoing the key", () => {
    const x25519 = generateKeyPairSync("x25519")
      .privateKey.export({ type: "pkcs8", format: "der" })
      .toString("base64url");
    const rsa1024 = generateKeyPairSync("rsa", { modulusLength: 1024 })
      .privateKey.export({ type: "pkcs8", format: "der" })
      .toString("base64url");
    const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" })
      .privateKey.export({ type: "pkcs8", format: "der" })
      .toString("base64url");
    const spki = createPublicKey(p256.privateKey).export({ type: "spki", format: "der" }).toString("base64url");
    const publicPem = createPublicKey(p256.privateKey).export({ type: "spki", format: "pem" }) as string;
    const { d: _d, ...publicJwk } = p256.privateKey.export({ format: "jwk" });
    const truncated = pkcs8.subarray(0, 40).toString("base64url");
    for (const privateKey of [
      x25519,
      rsa1024,
      p384,
      spki,
      publicPem,
      publicJwk,
      truncated,
      "not base64!",
      "AAAA",
      { kty: "oct", k: "c2VjcmV0" },
    ]) {
      const result = read({ import: raw({ privateKey }) });
      expect(fields(result)).toEqual(["/import/privateKey"]);
      const said = JSON.stringify(result);
      expect(said).not.toContain(typeof privateKey === "string" ? privateKey : JSON.stringify(privateKey));
      expect(said).not.toContain(pkcs8.toString("base64url").slice(20, 60));
    }
    expect(JSON.stringify(read({ import: raw({ privateKey: p384 }) }))).toContain(
      "must be an ES256 (ECDSA on P-256), EdDSA (Ed25519) or RS256 (RSA of 2048 bits or more) private key",
    );
    expect(JSON.stringify(read({ import: raw({ privateKey: p384 }) }))).toContain("this is an EC key on secp384r1");
  });

  it("refuses a relying party that is not the credential's site, ids of the wrong size, unknown and missing fields", () => {
    for (const rpId of ["other.com", "example.org", "com", "sub.app.example.com", "127.0.0.1"])
      expect(fields(read({ import: raw({ rpId }) }))).toEqual(["/import/rpId"]);
    expect(fields(read({ import: raw({ credentialId: randomBytes(8).toString("base64url") }) }))).toEqual([
      "/import/credentialId",
    ]);
    expect(fields(read({ import: raw({ userHandle: randomBytes(65).toString("base64url") }) }))).toEqual([
      "/import/userHandle",
    ]);
    expect(fields(read({ import: raw({ signCount: -1 }) }))).toEqual(["/import/signCount"]);
    expect(fields(read({ import: { ...raw(), algorithm: "ES256" } }))).toEqual(["/import/algorithm"]);
    expect(fields(read({ import: { privateKey: pkcs8.toString("base64url") } }))).toEqual([
      "/import/credentialId",
      "/import/rpId",
      "/import/userHandle",
    ]);
  });
});

describe("relyingPartyError", () => {
  it("takes the host and its parents up to the registrable domain, nothing else", () => {
    expect(relyingPartyError("app.shop.co.uk", "app.shop.co.uk")).toBeNull();
    expect(relyingPartyError("shop.co.uk", "app.shop.co.uk")).toBeNull();
    expect(relyingPartyError("co.uk", "app.shop.co.uk")).toMatch(/up to shop\.co\.uk/);
    expect(relyingPartyError("passkeys.localhost", "passkeys.localhost")).toBeNull();
    expect(relyingPartyError("localhost", "passkeys.localhost")).not.toBeNull();
    expect(relyingPartyError("alice.github.io", "alice.github.io")).toBeNull();
    expect(relyingPartyError("github.io", "alice.github.io")).not.toBeNull();
    expect(relyingPartyError("127.0.0.1", "127.0.0.1")).toMatch(/IP address/);
  });
});
