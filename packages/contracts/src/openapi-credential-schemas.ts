// The OpenAPI document's names for the answers of signup, refresh and verify, and of adding a passkey: their
// TypeBox schemas are in stored-sessions.ts.
export {
  passkeyAddedSchema as passkeyAdded,
  passkeyEnrolmentSchema as passkeyEnrolment,
  passkeyImportedSchema as passkeyImported,
  signupResultSchema as signupResult,
  storedCredentialSessionSchema as storedCredentialSession,
} from "./stored-sessions";
