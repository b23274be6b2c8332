import { asksApproval, asksChoice, asksConsent, asksQuestion, asksVerification } from "./person-step-words";

describe("approval words", () => {
  it("reads the push-approval steps of widely used sign-ins", () => {
    for (const text of [
      "Approve the sign-in on your phone. We sent a notification to your phone.",
      "We've sent a push notification to your phone. Open the app and tap Approve.",
      "Check your phone to approve this sign-in.",
      "Approve sign in request. Open your Authenticator app, and enter the number shown to sign in.",
      "Duo Push sent to iOS (XXX-XXX-1234)",
      "Tap Yes on your phone to sign in.",
      "Anmeldung bestätigen: Öffnen Sie die App auf Ihrem Telefon.",
      "Approuvez la connexion depuis votre téléphone.",
    ]) {
      expect([text, asksApproval(text)]).toEqual([text, true]);
    }
  });

  it("reads no approval step in what signed-in apps and other steps say", () => {
    for (const text of [
      "Approve the request",
      "3 invoices pending approval",
      "Waiting for approval from your manager",
      "Check your email to confirm your sign-in",
      "Enter the code we sent to your phone",
      "Approve or reject expense reports",
      "Send a notification to the team",
    ]) {
      expect([text, asksApproval(text)]).toEqual([text, false]);
    }
  });
});

describe("security question words", () => {
  it("reads the security questions sites ask", () => {
    for (const text of [
      "Answer your security question",
      "Security question: What was the name of your first pet?",
      "What is your mother's maiden name?",
      "Please enter characters 2, 5 and 7 of your memorable word",
      "Beantworten Sie Ihre Sicherheitsfrage",
      "Répondez à votre question de sécurité",
    ]) {
      expect([text, asksQuestion(text)]).toEqual([text, true]);
    }
  });

  it("reads no question in code prompts, password forms and ordinary pages", () => {
    for (const text of [
      "Enter the 6-digit code from your authenticator app",
      "Password",
      "Frequently asked questions",
      "Have a question? Contact us",
      "Answer the survey",
    ]) {
      expect([text, asksQuestion(text)]).toEqual([text, false]);
    }
  });
});

describe("chooser words", () => {
  it("reads the account and organization choosers sites show after the password", () => {
    for (const text of [
      "Choose an account",
      "Select an organization to continue",
      "Which account do you want to use?",
      "Pick an account",
      "Select your workspace",
      "Konto auswählen",
      "Choisissez un compte",
    ]) {
      expect([text, asksChoice(text)]).toEqual([text, true]);
    }
  });

  it("reads no chooser in what signed-in apps say", () => {
    for (const text of [
      "Select all",
      "Choose a plan",
      "Select a date",
      "Choose file",
      "Select the invoices to export",
      "Switch account",
    ]) {
      expect([text, asksChoice(text)]).toEqual([text, false]);
    }
  });
});

describe("verify-it's-you words", () => {
  it("reads the identity checks sites ask after the password", () => {
    for (const text of [
      "Verify it's you",
      "Confirm it’s you. We don't recognize this device.",
      "Help us confirm that it's you",
      "Unusual sign-in activity. To keep your account safe, verify your identity.",
      "We don't recognize this browser. Enter the phone number on your account.",
      "Sign-in from a new device",
      "Bestätigen Sie, dass Sie es sind",
      "Vérifiez qu'il s'agit bien de vous",
      "Confirma que eres tú",
    ]) {
      expect([text, asksVerification(text)]).toEqual([text, true]);
    }
  });

  it("reads no identity check in signup confirmations, profiles and code prompts", () => {
    for (const text of [
      "Verify your email address",
      "Verified account",
      "Enter the verification code",
      "Confirm your password",
      "Identity and access management",
      "Confirm your order",
    ]) {
      expect([text, asksVerification(text)]).toEqual([text, false]);
    }
  });
});

describe("terms words", () => {
  it("reads pages that hold the sign-in until the terms are accepted", () => {
    for (const text of [
      "We've updated our Terms of Service. Please review and accept them to continue.",
      "Accept the updated terms to continue",
      "Review and accept the new Privacy Policy",
      "We have revised our user agreement. You need to agree to it before you go on.",
      "Bitte Nutzungsbedingungen akzeptieren",
      "Acceptez les nouvelles conditions",
    ]) {
      expect([text, asksConsent(text)]).toEqual([text, true]);
    }
  });

  it("reads no terms step in footers, sign-in notes and cookie banners", () => {
    for (const text of [
      "Terms of Service · Privacy Policy",
      "By signing in you agree to our Terms of Service and Privacy Policy.",
      "We use cookies. Accept all cookies",
      "I accept the invitation",
      "Read our updated privacy policy",
    ]) {
      expect([text, asksConsent(text)]).toEqual([text, false]);
    }
  });
});
