import { Writable } from "node:stream";
import { createLogger } from "./index";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

describe("createLogger", () => {
  it("redacts secrets wherever they appear", () => {
    const { lines, stream } = capture();
    const log = createLogger("test", "info", stream);
    log.info(
      {
        cred: { username: "u", password: "hunter2" },
        req: { headers: { authorization: "Bearer pk_abc", cookie: "sid=xyz" } },
        result: { cookies: [{ value: "cookie-secret" }] },
        job: { input: { password: "p2", totpSecret: "JBSWY3DP" } },
        config: { captchaSolver: { provider: "2captcha", key: "solver-api-key" } },
        body: { import: { credentialId: "Y3JlZC1pZA", privateKey: "MIGHAgEAMBMG-pkcs8" } },
        passkey: { rpId: "example.com", privateKey: "MIGHAgEAMBMG-stored" },
      },
      "login",
    );
    const text = lines.join("");
    for (const secret of [
      "hunter2",
      "pk_abc",
      "sid=xyz",
      "cookie-secret",
      "p2",
      "JBSWY3DP",
      "solver-api-key",
      "MIGHAgEAMBMG",
      "Y3JlZC1pZA",
    ])
      expect(text).not.toContain(secret);
    expect(text).toContain("[redacted]");
  });
});
