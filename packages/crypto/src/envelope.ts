import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { KeyRing } from "./key-ring";

// Format: v1.<kek version>.<wrapped data key>.<sealed data>, each binary part base64url(iv|ciphertext|tag).
const FORMAT = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class DecryptionError extends Error {
  constructor(reason: string) {
    super(`cannot decrypt: ${reason}`);
    this.name = "DecryptionError";
  }
}

function seal(key: Buffer, plaintext: Buffer, aad: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
}

function open(key: Buffer, sealed: string, aad: Buffer): Buffer {
  const raw = Buffer.from(sealed, "base64url");
  if (raw.length < IV_BYTES + TAG_BYTES) throw new DecryptionError("truncated");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(aad);
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new DecryptionError("authentication failed (wrong key, tampered data or other row)");
  }
}

/**
 * Envelope encryption: a fresh data key per value, wrapped by the ring's active key. `aad` binds the
 * ciphertext to its owner (org id + row id), so a value copied to another row or tenant will not open.
 */
export class Envelope {
  constructor(private readonly ring: KeyRing) {}

  encrypt(plaintext: string | Buffer, aad: string): string {
    const aadBytes = Buffer.from(aad, "utf8");
    const dataKey = randomBytes(32);
    const kek = this.ring.keys.get(this.ring.activeVersion)!;
    const wrapped = seal(kek, dataKey, aadBytes);
    const body = seal(dataKey, Buffer.isBuffer(plaintext) ? plaintext : Buffer.from(plaintext, "utf8"), aadBytes);
    return `${FORMAT}.${this.ring.activeVersion}.${wrapped}.${body}`;
  }

  decrypt(ciphertext: string, aad: string): Buffer {
    const [format, version, wrapped, body, ...rest] = ciphertext.split(".");
    if (format !== FORMAT || !version || !wrapped || !body || rest.length) throw new DecryptionError("unknown format");
    const kek = this.ring.keys.get(Number(version));
    if (!kek) throw new DecryptionError(`key version ${version} is not in the key ring`);
    const aadBytes = Buffer.from(aad, "utf8");
    return open(open(kek, wrapped, aadBytes), body, aadBytes);
  }

  encryptJson(value: unknown, aad: string): string {
    return this.encrypt(JSON.stringify(value), aad);
  }

  decryptJson<T>(ciphertext: string, aad: string): T {
    return JSON.parse(this.decrypt(ciphertext, aad).toString("utf8")) as T;
  }

  /** True when the value was sealed with an older key version and should be re-encrypted. */
  needsRotation(ciphertext: string): boolean {
    return ciphertext.split(".")[1] !== String(this.ring.activeVersion);
  }
}

/** AAD for a secret owned by one row of one tenant. */
export function rowAad(orgId: string, rowId: string): string {
  return `${orgId}/${rowId}`;
}
