import { ApiError } from "../http/api-error";
import { parseSignupRequest, signupJobInput } from "./parse-signup-request";

const outcomeOf = (body: unknown) => {
  try {
    parseSignupRequest(body);
    return "parsed";
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return `${err.code} ${(err.details ?? []).map((d) => d.field).join(",")}`.trim();
  }
};

describe("parseSignupRequest: the provider of a signup by OAuth", () => {
  const domain = "https://app.example.com/signup";
  const account = { email: "agent@example.com", password: "p" };

  it("is named once, by provider or cred.provider, and only for signup_method oauth", () => {
    expect(outcomeOf({ domain, signup_method: "oauth", cred: account })).toBe("invalid_request /provider");
    expect(
      outcomeOf({ domain, signup_method: "oauth", provider: "google", cred: { ...account, provider: "Okta" } }),
    ).toBe("invalid_request /cred/provider");
    expect(outcomeOf({ domain, signup_method: "oauth", provider: "okta", cred: account })).toBe(
      "invalid_request /provider",
    );
    expect(outcomeOf({ domain, signup_method: "email", provider: "github", cred: account })).toBe(
      "invalid_request /provider",
    );
    expect(outcomeOf({ domain, signup_method: "email", cred: { ...account, provider: "Okta" } })).toBe(
      "invalid_request /cred/provider",
    );
  });

  it("resolves the provider and keeps the provider account's TOTP secret", () => {
    expect(parseSignupRequest({ domain, signup_method: "oauth", provider: "github", cred: account })).toMatchObject({
      method: "oauth",
      provider: "github",
      email: "agent@example.com",
    });
    expect(
      parseSignupRequest({ domain, signup_method: "oauth", cred: { ...account, provider: " https://id.example.com " } })
        .provider,
    ).toBe("https://id.example.com");
    expect(
      parseSignupRequest({
        domain,
        signup_method: "oauth",
        provider: "google",
        cred: { ...account, totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DP" },
      }).totpSecret,
    ).toBe("JBSWY3DPEHPK3PXPJBSWY3DP");
    expect(outcomeOf({ domain, signup_method: "email", cred: account })).toBe("parsed");
  });

  it("needs the provider account's email and password, and a readable TOTP secret", () => {
    expect(outcomeOf({ domain, signup_method: "oauth", provider: "github", cred: { password: "p" } })).toBe(
      "invalid_request /cred/email",
    );
    expect(outcomeOf({ domain, signup_method: "oauth", provider: "github", cred: { email: "a@b.test" } })).toBe(
      "invalid_request /cred/password",
    );
    expect(
      outcomeOf({
        domain,
        signup_method: "oauth",
        provider: "github",
        cred: { ...account, totpSecret: "not base32!" },
      }),
    ).toBe("invalid_request /cred/totpSecret");
    expect(
      outcomeOf({ domain, signup_method: "email", cred: { ...account, totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DP" } }),
    ).toBe("invalid_request /cred/totpSecret");
  });
});

describe("signupJobInput: the job's input by the signup's method", () => {
  const domain = "https://app.example.com/signup";

  it("carries an OAuth signup's provider account and provider, never a passkey", () => {
    const cmd = parseSignupRequest({
      domain,
      signup_method: "oauth",
      provider: "google",
      cred: { email: "Agent@Example.com", password: "p", totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DP", username: "agent" },
    });
    expect(signupJobInput(cmd, cmd.email, undefined)).toEqual({
      kind: "signup",
      method: "oauth",
      email: "agent@example.com",
      password: "p",
      provider: "google",
      totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DP",
      signup: { username: "agent" },
    });
  });

  it("carries a site account's email where its mail is read, and its passkey's wish, never a provider", () => {
    const cmd = parseSignupRequest({ domain, signup_method: "email", allocateMailbox: true, createPasskey: true });
    const inbox = { kind: "email" as const, mailboxId: "mb_1", address: "new@mail.example.test" };
    expect(JSON.parse(JSON.stringify(signupJobInput(cmd, inbox.address, inbox)))).toEqual({
      kind: "signup",
      method: "email",
      email: "new@mail.example.test",
      inbox,
      createPasskey: true,
      signup: {},
    });
  });
});
