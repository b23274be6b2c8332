import { jobEventsPath } from "./job-events";

// Examples of the OpenAPI document: realistic shapes, made-up values (no cookie, key or password here is real).
// The unit test openapi-lint.test.ts validates each one against its schema.

const jobId = "job_4Lq8ZpW2nRt6YvB1xK9sDm";
const credentialId = "cred_7Hc2VnQ9pL4tXw8bZr1mKs";

const cookie = {
  name: "sid",
  value: "example-session-cookie-value",
  domain: "app.example.com",
  path: "/",
  expires: 1795000000,
  httpOnly: true,
  secure: true,
  sameSite: "Lax",
};

export const session = {
  cookies: [cookie],
  origins: ["https://app.example.com"],
  storageState: {
    cookies: [cookie],
    origins: [{ origin: "https://app.example.com", localStorage: [{ name: "theme", value: "dark" }] }],
  },
};

export const storedCredentialSession = { ...session, credentialId, expiresAt: "2026-11-26T05:33:20.000Z" };

export const signupResult = {
  ...storedCredentialSession,
  account: { email: "signup-3k9x@mail.authsvc.example", username: "agent-7", passwordGenerated: true },
};

export const pendingJob = { jobId, status: "running", eventsUrl: jobEventsPath(jobId) };

export const jobs = {
  running: { summary: "Still running", value: pendingJob },
  succeeded: {
    summary: "Signed in: `result` is the session",
    value: { ...pendingJob, status: "succeeded", result: session },
  },
  needsInput: {
    summary: "Waiting for a person: `input` says what for (POST /jobs/{jobId}/input answers it)",
    value: {
      ...pendingJob,
      status: "needs_input",
      input: {
        reason: "code",
        prompt: "Enter the 6-digit code from your authenticator app.",
        fields: ["code"],
        expiresAt: "2026-11-26T05:10:03.000Z",
      },
    },
  },
  failed: {
    summary: "Failed: `error` is what the synchronous call would have answered",
    value: {
      ...pendingJob,
      status: "failed",
      error: { code: "invalid_credentials", message: "The site said: Incorrect username or password." },
    },
  },
};

const at = (second: number) => `2026-11-26T05:00:${String(second).padStart(2, "0")}.000Z`;
const events = [
  { type: "queued", jobId, at: at(0) },
  { type: "started", jobId, at: at(0), attempt: 1 },
  { type: "navigating", jobId, at: at(1), origin: "https://app.example.com" },
  { type: "form_found", jobId, at: at(2) },
  { type: "submitted", jobId, at: at(3) },
  { type: "waiting_for_email", jobId, at: at(3), address: "agent-7@mail.authsvc.example" },
  { type: "verifying", jobId, at: at(9) },
  { type: "succeeded", jobId, at: at(10), credentialId },
];

/** The stream's messages, in the shape of the JobEventStream schema (each `data` is one line of JSON). */
export const eventStream = events.map((e, i) => ({ id: `1764133200000-${i}`, event: e.type, data: JSON.stringify(e) }));

/** The first messages as the wire carries them: `id:`, `event:`, `data:` and a blank line each. */
export const eventStreamWire = eventStream
  .slice(0, 3)
  .map((m) => `id: ${m.id}\nevent: ${m.event}\ndata: ${m.data}\n`)
  .join("\n");

export const loginRequests = {
  password: {
    summary: "Password",
    value: {
      domain: "https://app.example.com/login",
      login_method: "password",
      cred: { username: "ada@example.com", password: "correct-horse-battery" },
      collectionId: "team-a",
    },
  },
  totp: {
    summary: "Password and authenticator code",
    value: {
      domain: "https://app.example.com/login",
      login_method: "totp",
      cred: { username: "ada", password: "correct-horse-battery", totpSecret: "JBSWY3DPEHPK3PXP" },
    },
  },
  otpEmail: {
    summary: "Code mailed to one of your mailboxes",
    value: {
      domain: "https://app.example.com/login",
      login_method: "otp_email",
      cred: { email: "agent-7@mail.authsvc.example" },
      useCache: false,
    },
  },
};

export const signupRequest = {
  domain: "https://app.example.com/signup",
  signup_method: "email",
  cred: { username: "agent-7", name: "Agent Seven" },
  allocateMailbox: true,
};

export const credential = {
  credentialId,
  site: "https://app.example.com",
  loginPage: "https://app.example.com/login",
  loginUrl: "https://app.example.com/login",
  username: "ada@example.com",
  collectionId: "team-a",
  createdAt: "2026-11-20T09:12:00.000Z",
  lastLoginAt: "2026-11-26T04:58:31.000Z",
  status: "active",
  lastError: null,
  deviceRememberedAt: "2026-11-26T04:58:31.000Z",
  region: null,
  methods: [
    { type: "password" },
    {
      type: "passkey",
      passkeyId: "pk_6Tz2Wc8mHq4vRn1xLp9sKd",
      rpId: "app.example.com",
      createdAt: "2026-11-26T05:02:10.000Z",
      lastUsedAt: "2026-11-26T05:40:00.000Z",
    },
  ],
};

export const passkeyEnrolment = {
  passkey: {
    type: "passkey",
    passkeyId: "pk_6Tz2Wc8mHq4vRn1xLp9sKd",
    rpId: "app.example.com",
    createdAt: "2026-11-26T05:02:10.000Z",
    lastUsedAt: null,
  },
  ...storedCredentialSession,
};

// An example key, made for this page and registered nowhere.
const examplePasskey = {
  credentialId: "Y9ZBt21qT76QwgnJYhxKmw",
  rpId: "example.com",
  userHandle: "dXNlci00Mg",
  key: "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQghzhkXulk7bEFX1MU3BXGdDawEscyQ-PSk7GUYqUYxZuhRANCAARulvMbuqSqIU8IjwhzybuCo6M7zbXA3SMMtVgmPuTk5c6JIupn_Qq7_hHX13pvfocYMqEkMnDwRImq-7_H9D79",
};

export const passkeyImportFields = {
  import: {
    credentialId: examplePasskey.credentialId,
    privateKey: examplePasskey.key,
    rpId: examplePasskey.rpId,
    userHandle: examplePasskey.userHandle,
    signCount: 12,
  },
};

export const passkeyImportCxf = {
  import: {
    cxf: {
      id: "aXRlbS0xMjM",
      title: "app.example.com",
      credentials: [
        {
          type: "passkey",
          credentialId: examplePasskey.credentialId,
          rpId: examplePasskey.rpId,
          username: "ada@example.com",
          userDisplayName: "Ada",
          userHandle: examplePasskey.userHandle,
          key: examplePasskey.key,
        },
      ],
    },
  },
};

export const passkeyImported = {
  passkey: {
    type: "passkey",
    passkeyId: "pk_8Qe3Xd7nJr2wTm5yKs1vLb",
    rpId: "example.com",
    createdAt: "2026-11-26T05:02:10.000Z",
    lastUsedAt: null,
  },
  credentialId: "cred_4Xv8Nc2Qm7Lp1Rz9Tb5Wd3",
};

export const mailbox = {
  id: "mbx_2Fj6Tq1wYc8nRv5xLp3sHd",
  address: "agent-7@mail.authsvc.example",
  label: "CRM signups",
  forwarding: false,
  createdAt: "2026-11-20T09:10:00.000Z",
};

export const forwardingMailbox = {
  ...mailbox,
  id: "mbx_6Wn3Hs8dKq1vTz4cRb7pLy",
  address: "fwd-acme-2k7@mail.authsvc.example",
  label: null,
  forwarding: true,
};

export const message = {
  id: "msg_5Rt9Bv2nQc7xLm4wKd8zHp",
  from: "no-reply@app.example.com",
  subject: "Your sign-in code",
  recipient: "agent-7@mail.authsvc.example",
  originalRecipients: [],
  receivedAt: "2026-11-26T05:00:06.000Z",
  authenticated: null,
  code: "482913",
  link: null,
};

export const phoneNumber = {
  id: "pn_3Lx8Qd1vWr6tNc9bYk2sFm",
  number: "+14155550123",
  label: "2FA line",
  createdAt: "2026-11-18T14:00:00.000Z",
};

export const proxy = {
  id: "prx_4Hq8Tz2mWc6vRn1xLp9sKd",
  address: "http://proxy.example.net:3128",
  label: "eu-residential",
  region: "eu",
  createdAt: "2026-11-25T16:40:00.000Z",
};

export const webhook = {
  id: "whk_9Kd3Mb7rXq2vNf6tWc1zGy",
  url: "https://hooks.example.com/authsvc",
  events: ["session.expired", "credential.failed"],
  createdAt: "2026-11-25T16:40:00.000Z",
};

export const entryLink = {
  linkId: "elink_3Vb8Qm2KzR6tYw1NcP5xLd",
  url: "https://dashboard.authsvc.example/enter/elink_3Vb8Qm2KzR6tYw1NcP5xLd.Jx2b9Qe1Wm7Hc4Vn8Lk3Rt6Yp0Zs5Ad2Fg7Hj1Kl4M",
  site: "https://app.example.com",
  loginUrl: "https://app.example.com/login",
  collectionId: "team-a",
  loginMethod: "password",
  status: "open",
  createdAt: "2026-11-27T09:00:00.000Z",
  expiresAt: "2026-11-28T09:00:00.000Z",
  tries: 0,
  maxTries: 3,
  jobId: null,
  credentialId: null,
  lastError: null,
};

export const entryLinkCreated = {
  ...entryLink,
  status: "created",
  tries: 1,
  jobId,
  credentialId,
};
