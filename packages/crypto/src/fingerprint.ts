import { createHmac } from "node:crypto";

/**
 * Keyed, one-way digest of parts (length-prefixed so that no two part lists collide). Used for cache and
 * single-flight keys: equal inputs meet, and Redis never learns the inputs.
 */
export function fingerprint(key: Buffer, parts: readonly string[]): string {
  const mac = createHmac("sha256", key);
  for (const part of parts) {
    mac.update(`${Buffer.byteLength(part, "utf8")}:`);
    mac.update(part, "utf8");
  }
  return mac.digest("base64url");
}
