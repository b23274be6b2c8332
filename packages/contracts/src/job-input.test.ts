import { readJobInput, type StoredJobInput } from "./job-input";

// Inputs stored before they carried a `kind` are read back by later runs, replays and the dashboard.
describe("readJobInput", () => {
  const inbox = { kind: "email" as const, mailboxId: "mb_1", address: "a@example.test" };

  it.each<[string, StoredJobInput, string]>([
    ["a password login", { method: "password", password: "pw" }, "login"],
    ["an OAuth login", { method: "oauth_google", provider: "google", password: "pw" }, "login"],
    ["a passkey login", { method: "passkey" }, "login"],
    ["a verify", { method: "password", password: "pw", confirmation: { link: "https://x.test/c" } }, "verify"],
    [
      "a passkey enrolment",
      { method: "password", password: "pw", enrol: { settingsUrl: "https://x.test/s" } },
      "passkey_enrol",
    ],
    ["a signup", { method: "email", email: "a@example.test", inbox, signup: { username: "a" } }, "signup"],
    [
      "an OAuth signup",
      { method: "oauth", email: "a@example.test", password: "pw", provider: "google", signup: {} },
      "signup",
    ],
  ])("tells an untagged %s by its shape", (_, stored, kind) => {
    expect(readJobInput(stored)).toEqual({ ...stored, kind });
  });

  it("keeps the kind a tagged input was written with", () => {
    const stored: StoredJobInput = { kind: "login", method: "password", password: "pw" };
    expect(readJobInput(stored)).toBe(stored);
  });

  it("reads an input through JSON as the database gives it back", () => {
    const stored = JSON.parse(
      JSON.stringify({ method: "password", confirmation: { inboxSince: "2026-01-01T00:00:00Z" } }),
    );
    expect(readJobInput(stored).kind).toBe("verify");
  });
});
