/** Key-encryption keys by version; new data is sealed with the active one, old versions still open. */
export interface KeyRing {
  activeVersion: number;
  keys: ReadonlyMap<number, Buffer>;
}

/**
 * Parses `1:<base64 32 bytes>,2:<base64 32 bytes>`; the highest version is active unless named.
 * Throws with a message that names the fault, never the key material.
 */
export function parseKeyRing(spec: string, activeVersion?: number): KeyRing {
  const keys = new Map<number, Buffer>();
  for (const part of spec
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const sep = part.indexOf(":");
    const version = Number(part.slice(0, sep));
    if (sep < 1 || !Number.isInteger(version) || version < 1) {
      throw new Error("encryption key ring: each entry must look like <version>:<base64 key>");
    }
    const key = Buffer.from(part.slice(sep + 1), "base64");
    if (key.length !== 32) throw new Error(`encryption key ring: key version ${version} is not 32 bytes`);
    if (keys.has(version)) throw new Error(`encryption key ring: version ${version} appears twice`);
    keys.set(version, key);
  }
  if (keys.size === 0) throw new Error("encryption key ring: no keys");
  const active = activeVersion ?? Math.max(...keys.keys());
  if (!keys.has(active)) throw new Error(`encryption key ring: active version ${active} has no key`);
  return { activeVersion: active, keys };
}
