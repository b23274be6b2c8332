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

  it("is still required for totp and the inbox methods", () => {
    expect(fieldsOf({ domain, login_method: "totp", cred: { password: "p", totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DP" } })).toEqual(["/cred/username"]);
    expect(fieldsOf({ domain, login_method: "otp_sms", cred: {} })).toEqual(["/cred/username", "/cred/phone"]);
  });
});
