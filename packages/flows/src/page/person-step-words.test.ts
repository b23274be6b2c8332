import { asksApproval, asksChoice, asksQuestion } from "./person-step-words";

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
    for (const text of ["Enter the 6-digit code from your authenticator app", "Password", "Frequently asked questions", "Have a question? Contact us", "Answer the survey"]) {
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
    for (const text of ["Select all", "Choose a plan", "Select a date", "Choose file", "Select the invoices to export", "Switch account"]) {
      expect([text, asksChoice(text)]).toEqual([text, false]);
    }
  });
});
