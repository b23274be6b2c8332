import { TargetGuard } from "./target-guard";

describe("TargetGuard", () => {
  const strict = new TargetGuard();

  it.each([
    "127.0.0.1",
    "::1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "fe80::1",
    "fd00::1",
    "0.0.0.0",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "100.64.0.1",
    "100.100.100.200",
    "224.0.0.1",
    "not-an-ip",
    "::7f00:1",
    "::a00:1",
    "2002:7f00:1::1",
    "64:ff9b::a00:1",
    "2001::1",
    "fc00::1",
  ])("refuses %s by default", (address) => {
    expect(strict.addressAllowed(address)).toBe(false);
  });

  it.each(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "8.8.8.8"])("allows public %s", (address) => {
    expect(strict.addressAllowed(address)).toBe(true);
  });

  it("allows only the ranges named in config", () => {
    const local = new TargetGuard(["loopback"]);
    expect(local.addressAllowed("127.0.0.1")).toBe(true);
    expect(local.addressAllowed("::ffff:127.0.0.1")).toBe(true);
    expect(local.addressAllowed("10.0.0.1")).toBe(false);
    expect(local.addressAllowed("169.254.169.254")).toBe(false);
  });

  it("checks URLs: scheme, literal addresses and resolved names", async () => {
    await expect(strict.check("file:///etc/passwd")).resolves.toMatchObject({
      allowed: false,
      code: "target_not_allowed",
    });
    await expect(strict.check("javascript:alert(1)")).resolves.toMatchObject({ allowed: false });
    await expect(strict.check("http://[::1]:8080/login")).resolves.toMatchObject({
      allowed: false,
      code: "target_not_allowed",
    });
    await expect(strict.check("http://localhost:8080/")).resolves.toMatchObject({
      allowed: false,
      code: "target_not_allowed",
    });
    await expect(strict.check("http://169.254.169.254/latest/meta-data")).resolves.toMatchObject({ allowed: false });
    await expect(strict.check("http://93.184.216.34/login")).resolves.toEqual({ allowed: true });
    await expect(new TargetGuard(["loopback"]).check("http://localhost:1/")).resolves.toEqual({ allowed: true });
    // Names under .localhost are loopback (RFC 6761), refused like localhost itself.
    await expect(strict.check("http://idp.localhost/")).resolves.toMatchObject({
      allowed: false,
      code: "target_not_allowed",
    });
    await expect(new TargetGuard(["loopback"]).resolve("api.shop.localhost")).resolves.toEqual({
      allowed: true,
      addresses: ["127.0.0.1", "::1"],
    });
    await expect(strict.check("http://no-such-host.invalid/")).resolves.toMatchObject({ code: "target_unreachable" });
    // Numeric host spellings that URL parsers turn into loopback.
    for (const url of ["http://2130706433/", "http://0x7f.1/", "http://0177.0.0.1/", "http://127.1/"]) {
      await expect(strict.check(url)).resolves.toMatchObject({ allowed: false, code: "target_not_allowed" });
    }
  });
});
