import { HostMap, HostMapError } from "./host-map";
import { TargetGuard } from "./target-guard";

describe("HostMap", () => {
  it("reads the EGRESS_HOST_MAP form and writes it back", () => {
    const map = HostMap.parse(" accounts.google.com=127.0.0.1:41234, GitHub.com.=[::1]:41235 ");
    expect(map.get("ACCOUNTS.google.com")).toEqual({ address: "127.0.0.1", port: 41234 });
    expect(map.get("github.com.")).toEqual({ address: "::1", port: 41235 });
    expect(map.get("google.com")).toBeUndefined();
    expect(map.toString()).toBe("accounts.google.com=127.0.0.1:41234,github.com=[::1]:41235");
    expect(HostMap.parse("").size).toBe(0);
  });

  it("maps only names, only to loopback, each once", () => {
    expect(() => HostMap.parse("github.com=10.0.0.1:80")).toThrow(/loopback/);
    expect(() => HostMap.parse("github.com=93.184.216.34:80")).toThrow(HostMapError);
    expect(() => HostMap.parse("github.com=localhost:80")).toThrow(/loopback/);
    expect(() => HostMap.parse("127.0.0.2=127.0.0.1:80")).toThrow(/not a host name/);
    expect(() => HostMap.parse("github.com=127.0.0.1")).toThrow(/name=address:port/);
    expect(() => HostMap.parse("github.com=127.0.0.1:0")).toThrow(/not a port/);
    expect(() => HostMap.parse("github.com=127.0.0.1:1,GITHUB.COM=127.0.0.1:2")).toThrow(/twice/);
  });

  it("sends a mapped name's ports 80 and 443 to the fixture's port, and nothing else anywhere new", () => {
    const map = HostMap.parse("github.com=127.0.0.1:41235");
    expect(map.portFor("github.com", 80)).toBe(41235);
    expect(map.portFor("github.com", 443)).toBe(41235);
    expect(map.portFor("github.com", 8443)).toBe(8443);
    expect(map.portFor("api.github.com", 80)).toBe(80);
  });
});

describe("TargetGuard with a host map", () => {
  const map = HostMap.parse("accounts.google.com=127.0.0.1:41234");
  // The lookup stands for DNS: it must not be asked about a mapped name.
  const dns = async (host: string) => (host === "accounts.google.com" ? ["10.9.9.9"] : ["93.184.216.34"]);

  it("resolves a mapped name to its address and checks it as usual", async () => {
    await expect(new TargetGuard(["loopback"], dns, map).resolve("accounts.google.com")).resolves.toEqual({
      allowed: true,
      addresses: ["127.0.0.1"],
    });
    await expect(
      new TargetGuard(["loopback"], dns, map).check("http://Accounts.Google.com/o/oauth2/v2/auth"),
    ).resolves.toEqual({ allowed: true });
    // Without loopback allowed the mapped address is refused like any other loopback target.
    await expect(new TargetGuard([], dns, map).check("http://accounts.google.com/")).resolves.toMatchObject({
      allowed: false,
      code: "target_not_allowed",
    });
  });

  it("leaves unmapped names to the resolver", async () => {
    await expect(new TargetGuard(["loopback"], dns, map).resolve("mail.google.com")).resolves.toEqual({
      allowed: true,
      addresses: ["93.184.216.34"],
    });
    await expect(new TargetGuard(["loopback"], dns).resolve("accounts.google.com")).resolves.toMatchObject({
      allowed: false,
    });
  });
});
