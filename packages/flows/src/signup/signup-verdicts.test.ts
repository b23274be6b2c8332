import { ACCOUNT_MAILED, PROGRESS, signupRefusalOf } from "./signup-verdicts";

describe("signupRefusalOf", () => {
  it.each([
    ["That username is already taken. Please choose another.", "username_taken"],
    ["Benutzername ist bereits vergeben.", "username_taken"],
    ["An account with this email address already exists.", "account_exists"],
    ["This email is already registered. Log in instead?", "account_exists"],
    ["Diese E-Mail-Adresse ist bereits registriert.", "account_exists"],
    ["Password must be 12 to 16 characters of letters, digits and ! # $ %.", "password_rules"],
    ["Your password is too short.", "password_rules"],
    ["Passwords do not match.", "other"],
    ["You must accept the terms of service.", "other"],
  ])("reads %j as %s", (message, kind) => {
    expect(signupRefusalOf(message)).toBe(kind);
  });

  it.each([
    "Your account has been registered successfully.",
    "Thanks! Your email address has been registered.",
    "Check your email: we have already sent you a link",
    "Spaces are not allowed in username",
    "Your username may comprise letters and digits",
  ])("does not take %j for a taken username or a known email", (message) => {
    expect(["username_taken", "account_exists"]).not.toContain(signupRefusalOf(message));
  });

  it("tells a site at work from a refusal", () => {
    expect(PROGRESS.test("Creating your account…")).toBe(true);
    expect(PROGRESS.test("Please wait")).toBe(true);
    expect(PROGRESS.test("That code is incorrect.")).toBe(false);
  });
});

describe("ACCOUNT_MAILED", () => {
  it.each([
    ["The account Ada has been created. A temporary password has been sent to ada@example.test.", true],
    ["We have emailed your password to you.", true],
    ["Ihr Passwort wurde an Ihre E-Mail-Adresse gesendet.", true],
    ["Your password must be at least 8 characters.", false],
    ["Forgot your password?", false],
    ["Registration complete. Please check your email, then visit the login page.", true],
    ["We sent a confirmation link to ada@example.test.", false],
  ])("%j: %s", (text, mailed) => {
    expect(ACCOUNT_MAILED.test(text)).toBe(mailed);
  });
});
