import { twilioSignature, twilioSignatureMatches } from "./twilio-signature";

// The example of Twilio's own documentation (security/signature_validation): token, URL, parameters, signature.
const TOKEN = "12345";
const URL = "https://mycompany.com/myapp.php?foo=1&bar=2";
const PARAMS = {
  CallSid: "CA1234567890ABCDE",
  Caller: "+14158675310",
  Digits: "1234",
  From: "+14158675310",
  To: "+18005551212",
};

describe("Twilio webhook signature", () => {
  it("matches Twilio's documented example", () => {
    expect(twilioSignature(TOKEN, URL, PARAMS)).toBe("GvWf1cFY/Q7PnoempGyD5oXAezc=");
    expect(twilioSignatureMatches(TOKEN, URL, PARAMS, "GvWf1cFY/Q7PnoempGyD5oXAezc=")).toBe(true);
  });

  it("refuses another token, URL, parameter value or signature", () => {
    const good = twilioSignature(TOKEN, URL, PARAMS);
    expect(twilioSignatureMatches("54321", URL, PARAMS, good)).toBe(false);
    expect(twilioSignatureMatches(TOKEN, URL.replace("https", "http"), PARAMS, good)).toBe(false);
    expect(twilioSignatureMatches(TOKEN, URL, { ...PARAMS, Digits: "1235" }, good)).toBe(false);
    expect(twilioSignatureMatches(TOKEN, URL, PARAMS, "")).toBe(false);
    expect(twilioSignatureMatches(TOKEN, URL, PARAMS, good.slice(0, -2))).toBe(false);
  });
});
