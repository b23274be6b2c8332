import { apiKeyLookupPrefix, apiKeyMatches, mintApiKey } from "./api-key";
import { toBase62 } from "./base62";

describe("API keys", () => {
  it("mints pk_ keys of 32 random bytes in base62 with a public lookup prefix", () => {
    const minted = mintApiKey();
    expect(minted.key).toMatch(/^pk_[0-9A-Za-z]{43}$/);
    expect(minted.prefix).toBe(minted.key.slice(0, 15));
    expect(minted.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(minted.hash).not.toContain(minted.key.slice(3));
    expect(mintApiKey().key).not.toBe(minted.key);
  });

  it("matches only the exact key", () => {
    const { key, hash } = mintApiKey();
    expect(apiKeyMatches(key, hash)).toBe(true);
    const wrong = key.slice(0, -1) + (key.endsWith("a") ? "b" : "a");
    expect(apiKeyMatches(wrong, hash)).toBe(false);
    expect(apiKeyMatches(key, "abcd")).toBe(false);
  });

  it("gives no prefix for strings that cannot be keys", () => {
    expect(apiKeyLookupPrefix("pk_short")).toBeNull();
    expect(apiKeyLookupPrefix("sk_" + "a".repeat(43))).toBeNull();
    expect(apiKeyLookupPrefix("pk_" + "a".repeat(42) + "!")).toBeNull();
  });

  it("keeps all 256 bits in base62", () => {
    expect(toBase62(Buffer.alloc(32, 0xff))).toHaveLength(43);
    expect(toBase62(Buffer.alloc(32, 0))).toBe("0".repeat(43));
  });
});
