import { asksApproval } from "./approval-words";

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
