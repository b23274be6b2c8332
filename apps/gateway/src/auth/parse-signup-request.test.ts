import { ApiError } from "../http/api-error";
import { parseSignupRequest } from "./parse-signup-request";

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
    expect(outcomeOf({ domain, signup_method: "oauth", provider: "google", cred: { ...account, provider: "Okta" } })).toBe("invalid_request /cred/provider");
    expect(outcomeOf({ domain, signup_method: "oauth", provider: "okta", cred: account })).toBe("invalid_request /provider");
    expect(outcomeOf({ domain, signup_method: "email", provider: "github", cred: account })).toBe("invalid_request /provider");
    expect(outcomeOf({ domain, signup_method: "email", cred: { ...account, provider: "Okta" } })).toBe("invalid_request /cred/provider");
  });

  it("makes a well-formed signup by OAuth, which does not run yet: 501 method_not_supported", () => {
    expect(outcomeOf({ domain, signup_method: "oauth", provider: "github", cred: account })).toBe("method_not_supported");
    expect(outcomeOf({ domain, signup_method: "oauth", cred: { ...account, provider: "https://id.example.com" } })).toBe("method_not_supported");
    expect(outcomeOf({ domain, signup_method: "email", cred: account })).toBe("parsed");
  });
});
