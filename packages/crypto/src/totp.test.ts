import { freshTotpCode, parseTotpSecret, totpCode, TotpSecretError } from "./totp";

// RFC 6238 appendix B: the ASCII seed "12345678901234567890" (repeated to 32 and 64 bytes for SHA-256/512).
const SEED20 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const SEED32 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA";
const SEED64 =
  "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA";

describe("TOTP", () => {
  it.each([
    [SEED20, "sha1", 59, "94287082"],
    [SEED32, "sha256", 59, "46119246"],
    [SEED64, "sha512", 59, "90693936"],
    [SEED20, "sha1", 1111111109, "07081804"],
    [SEED32, "sha256", 1111111109, "68084774"],
    [SEED20, "sha1", 20000000000, "65353130"],
  ] as const)("matches RFC 6238 (%#: %s at %i s)", (secret, algorithm, seconds, code) => {
    expect(totpCode({ secret, digits: 8, period: 30, algorithm }, seconds * 1000)).toBe(code);
  });

  it("reads base32 as sites show it, and otpauth URIs with their digits, period and algorithm", () => {
    expect(parseTotpSecret("gezd gnbv-gy3t qojq gezd gnbv gy3t qojq==")).toEqual({
      secret: SEED20,
      digits: 6,
      period: 30,
      algorithm: "sha1",
    });
    expect(
      parseTotpSecret(
        `otpauth://totp/ACME:ada%40example.com?secret=${SEED32}&issuer=ACME&digits=8&period=60&algorithm=SHA256`,
      ),
    ).toEqual({
      secret: SEED32,
      digits: 8,
      period: 60,
      algorithm: "sha256",
    });
    expect(parseTotpSecret("JBSWY3DPEHPK3PXP").secret).toBe("JBSWY3DPEHPK3PXP"); // 80 bits, as GitHub hands out
  });

  it.each([
    ["not base32 at all!", /base32/],
    ["ABCDEFG", /too short/],
    ["otpauth://hotp/x?secret=JBSWY3DPEHPK3PXP&counter=1", /HOTP/],
    ["otpauth://totp/x?issuer=nosecret", /without a secret/],
    ["otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&algorithm=MD5", /algorithm/],
    ["otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&digits=4", /digit/],
  ])("refuses %p", (input, reason) => {
    expect(() => parseTotpSecret(input)).toThrow(TotpSecretError);
    expect(() => parseTotpSecret(input)).toThrow(reason);
  });

  it("waits for the next window when the current code is about to expire", async () => {
    const spec = parseTotpSecret(SEED20);
    let now = 29_000; // 1 s left in the window [0, 30 s)
    const slept: number[] = [];
    const clock = { now: () => now, sleep: async (ms: number) => void (slept.push(ms), (now += ms)) };
    const code = await freshTotpCode(spec, 5000, clock);
    expect(slept).toEqual([1050]);
    expect(code).toBe(totpCode(spec, 30_050));
    expect(code).not.toBe(totpCode(spec, 29_000));
    slept.length = 0;
    now = 31_000; // 29 s left: no wait
    await freshTotpCode(spec, 5000, clock);
    expect(slept).toEqual([]);
  });
});
