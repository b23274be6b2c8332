import { ApiError } from "../http/api-error";
import { parseLoginRequest } from "./parse-login-request";

const fieldsOf = (body: unknown) => {
  try {
    parseLoginRequest(body);
    return [];
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return (err.details ?? []).map((d) => d.field);
  }
};

describe("parseLoginRequest: the identifier", () => {
  const domain = "https://router.example.com/login";

  it("is optional for a password login (a page that asks only for a password): it is then empty", () => {
    const command = parseLoginRequest({ domain, login_method: "password", cred: { password: "site-password" } });
    expect([command.identifier, command.password]).toEqual(["", "site-password"]);
  });

  it("counts an empty or blank username as absent (agent code often sends one), not as a 400", () => {
    for (const username of ["", "  "]) {
      const command = parseLoginRequest({
        domain,
        login_method: "password",
        cred: { username, password: "site-password" },
      });
      expect([command.identifier, command.email]).toEqual(["", undefined]);
      expect(
        fieldsOf({
          domain,
          login_method: "totp",
          cred: { username, password: "p", totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DP" },
        }),
      ).toEqual(["/cred/username"]);
    }
    expect(
      parseLoginRequest({
        domain,
        login_method: "password",
        cred: { username: "", email: "ada@example.com", password: "p" },
      }).identifier,
    ).toBe("ada@example.com");
  });

  it("is still required for totp and the inbox methods", () => {
    expect(
      fieldsOf({ domain, login_method: "totp", cred: { password: "p", totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DP" } }),
    ).toEqual(["/cred/username"]);
    expect(fieldsOf({ domain, login_method: "otp_sms", cred: {} })).toEqual(["/cred/username", "/cred/phone"]);
  });
});

describe("parseLoginRequest: the provider of an oauth login", () => {
  const domain = "https://app.example.com/login";
  const statusOf = (body: unknown) => {
    try {
      parseLoginRequest(body);
      return "parsed";
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return `${err.code} ${(err.details ?? []).map((d) => d.field).join(",")}`.trim();
    }
  };

  it("is required for login_method oauth, and refused with any other method", () => {
    expect(statusOf({ domain, login_method: "oauth", cred: { email: "agent@example.com", password: "p" } })).toBe(
      "invalid_request /cred/provider",
    );
    expect(
      statusOf({
        domain,
        login_method: "oauth_google",
        cred: { email: "agent@example.com", password: "p", provider: "Okta" },
      }),
    ).toBe("invalid_request /cred/provider");
    expect(
      statusOf({
        domain,
        login_method: "password",
        cred: { username: "ada", password: "p", provider: "https://id.example.com" },
      }),
    ).toBe("invalid_request /cred/provider");
  });

  it("makes a well-formed oauth request name its provider: google and github by the method, any other by cred.provider", () => {
    expect(
      parseLoginRequest({
        domain,
        login_method: "oauth",
        cred: { email: "agent@example.com", password: "p", provider: " https://id.example.com " },
      }).provider,
    ).toBe("https://id.example.com");
    expect(
      parseLoginRequest({ domain, login_method: "oauth_github", cred: { username: "agent", password: "p" } }).provider,
    ).toBe("github");
    expect(
      parseLoginRequest({ domain, login_method: "oauth_google", cred: { email: "agent@example.com", password: "p" } })
        .provider,
    ).toBe("google");
    expect(
      parseLoginRequest({ domain, login_method: "password", cred: { username: "ada", password: "p" } }).provider,
    ).toBeUndefined();
  });

  it("needs the provider account's identifier and password", () => {
    expect(statusOf({ domain, login_method: "oauth_google", cred: { email: "agent@example.com" } })).toBe(
      "invalid_request /cred/password",
    );
    expect(statusOf({ domain, login_method: "oauth_github", cred: { password: "p" } })).toBe(
      "invalid_request /cred/username",
    );
  });
});
