import { randomBytes } from "node:crypto";
import { Envelope, DecryptionError, rowAad } from "./envelope";
import { parseKeyRing } from "./key-ring";

const k1 = randomBytes(32).toString("base64");
const k2 = randomBytes(32).toString("base64");

describe("Envelope", () => {
  const envelope = new Envelope(parseKeyRing(`1:${k1}`));

  it("round-trips a value bound to its row", () => {
    const sealed = envelope.encrypt("hunter2", rowAad("org_a", "cred_1"));
    expect(sealed).not.toContain("hunter2");
    expect(envelope.decrypt(sealed, rowAad("org_a", "cred_1")).toString()).toBe("hunter2");
  });

  it("uses a fresh data key and IV for every value", () => {
    expect(envelope.encrypt("same", "aad")).not.toBe(envelope.encrypt("same", "aad"));
  });

  it("refuses a ciphertext moved to another row or tenant", () => {
    const sealed = envelope.encrypt("hunter2", rowAad("org_a", "cred_1"));
    expect(() => envelope.decrypt(sealed, rowAad("org_b", "cred_1"))).toThrow(DecryptionError);
    expect(() => envelope.decrypt(sealed, rowAad("org_a", "cred_2"))).toThrow(DecryptionError);
  });

  it("refuses tampered data", () => {
    const sealed = envelope.encrypt("hunter2", "aad");
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[14] = body[14]! ^ 1;
    parts[3] = body.toString("base64url");
    expect(() => envelope.decrypt(parts.join("."), "aad")).toThrow(DecryptionError);
    expect(() => envelope.decrypt("v1.1.zz", "aad")).toThrow(DecryptionError);
  });

  it("opens old versions after rotation and seals with the new one", () => {
    const old = envelope.encrypt("secret", "aad");
    const rotated = new Envelope(parseKeyRing(`1:${k1},2:${k2}`));
    expect(rotated.decrypt(old, "aad").toString()).toBe("secret");
    expect(rotated.needsRotation(old)).toBe(true);
    const fresh = rotated.encrypt("secret", "aad");
    expect(fresh.startsWith("v1.2.")).toBe(true);
    expect(rotated.needsRotation(fresh)).toBe(false);
    expect(() => new Envelope(parseKeyRing(`2:${k2}`)).decrypt(old, "aad")).toThrow(/version 1/);
  });
});

describe("parseKeyRing", () => {
  it("rejects malformed rings without echoing key material", () => {
    expect(() => parseKeyRing("")).toThrow(/no keys/);
    expect(() => parseKeyRing("x:abc")).toThrow(/<version>:<base64 key>/);
    expect(() => parseKeyRing("1:c2hvcnQ=")).toThrow(/not 32 bytes/);
    expect(() => parseKeyRing(`1:${k1},1:${k2}`)).toThrow(/twice/);
    expect(() => parseKeyRing(`1:${k1}`, 3)).toThrow(/active version 3/);
    try {
      parseKeyRing(`1:${k1}QQ`);
    } catch (err) {
      expect(String(err)).not.toContain(k1);
    }
  });
});
