import { CREDENTIAL_FAILURE_CODES, failuresOf, LOGIN_FAILURE_CODES, RETRYABLE_CODES } from "./job-failure-codes";

// The lists as they were written by hand before the error table carried them: a change here is a change
// of the service's behaviour, to make on purpose.
describe("the lists read off the error table", () => {
  it("retry only the transient faults", () => {
    expect([...RETRYABLE_CODES].sort()).toEqual([
      "internal_error",
      "proxy_unreachable",
      "target_unreachable",
      "timeout",
    ]);
  });

  it("count only the refusals of the credential against it", () => {
    expect([...CREDENTIAL_FAILURE_CODES].sort()).toEqual(
      ["account_locked", "invalid_credentials", "mfa_required", "passkey_rejected", "verification_failed"].sort(),
    );
  });

  it("say how a signup ends (and a fault of ours ends any job)", () => {
    expect([...failuresOf("signup")].sort()).toEqual(
      [
        "account_exists",
        "signup_rejected",
        "form_not_found",
        "captcha_blocked",
        "mfa_required",
        "verification_failed",
        "verification_pending",
        "provider_blocked",
        "consent_denied",
        "login_unconfirmed",
        "target_not_allowed",
        "target_unreachable",
        "region_unavailable",
        "timeout",
        "internal_error",
      ].sort(),
    );
  });

  it("end a job only with codes a login or a signup can end with", () => {
    const ends = new Set([...failuresOf("login"), ...failuresOf("signup")]);
    expect([...ends].sort()).toEqual([...LOGIN_FAILURE_CODES].sort());
    expect(failuresOf("signup")).not.toContain("invalid_credentials");
    expect(failuresOf("login")).not.toContain("account_exists");
    for (const code of [...RETRYABLE_CODES, ...CREDENTIAL_FAILURE_CODES]) expect(LOGIN_FAILURE_CODES).toContain(code);
  });
});
