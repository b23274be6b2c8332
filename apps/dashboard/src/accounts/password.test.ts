import { scryptSync } from "node:crypto";
import { hashPassword, passwordProblem, verifyPassword } from "./password";

describe("password hashing", () => {
  it("stores scrypt with its parameters and a fresh salt, and verifies only the same password", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    await expect(verifyPassword("correct horse battery", a)).resolves.toBe(true);
    await expect(verifyPassword("correct horse batterY", a)).resolves.toBe(false);
  });

  it("verifies with the parameters stored in the hash, and refuses malformed hashes", async () => {
    const salt = Buffer.from("0123456789abcdef");
    const older = `scrypt$1024$8$1$${salt.toString("base64")}$${scryptSync("pw-0123456789", salt, 32, { N: 1024, r: 8, p: 1 }).toString("base64")}`;
    await expect(verifyPassword("pw-0123456789", older)).resolves.toBe(true);
    await expect(verifyPassword("x", "plain")).resolves.toBe(false);
    await expect(verifyPassword("x", "scrypt$abc$8$1$AAAA$AAAA")).resolves.toBe(false);
  });

  it("asks for a password of sensible length", () => {
    expect(passwordProblem("short")).toMatch(/at least 10/);
    expect(passwordProblem("a".repeat(201))).toMatch(/at most 200/);
    expect(passwordProblem("long enough pw")).toBeNull();
  });
});
