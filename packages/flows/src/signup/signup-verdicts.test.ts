import { ACCOUNT_MAILED, ACTIVATION_MAILED, NOT_ACTIVATED, PROGRESS, signupRefusalOf } from "./signup-verdicts";

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

describe("ACTIVATION_MAILED and NOT_ACTIVATED", () => {
  it.each([
    [
      "Account was successfully created. An email containing the instructions to activate your account was sent to ada@example.test.",
      true,
    ],
    ["We have sent you an activation link.", true],
    ["Please confirm your email address to activate your account.", true],
    ["Wir haben Ihnen einen Link zur Aktivierung Ihres Kontos gesendet.", true],
    ["Un e-mail de confirmation vous a été envoyé.", true],
    ["Your account has been activated. You can now log in.", false],
    ["Forgot your password? We will send you a link to reset it.", false],
    ["Lost password", false],
  ])("mailed %j: %s", (text, mailed) => {
    expect(ACTIVATION_MAILED.test(text)).toBe(mailed);
  });

  it.each([
    [
      "You haven't activated your account yet. If you want to receive a new activation email, please click this link.",
      true,
    ],
    ["Your email address has not been verified.", true],
    ["Please confirm your email address before logging in.", true],
    ["Ihr Konto wurde noch nicht aktiviert.", true],
    ["Invalid user or password", false],
    ["Your account has been activated. You can now log in.", false],
    ["Your account has been confirmed.", false],
  ])("not activated %j: %s", (text, pending) => {
    expect(NOT_ACTIVATED.test(text)).toBe(pending);
  });
});
