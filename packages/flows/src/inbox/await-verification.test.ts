import { LoginFlowError } from "../flow-error";
import { awaitVerification, type Inbox, type InboxMessage } from "./await-verification";

/** An inbox held in memory: `deliver` stores a message and wakes waiters, as mail-in and pub/sub do. */
class MemoryInbox implements Inbox {
  readonly kind = "email" as const;
  readonly address = "agent-1@mail.example.com";
  forwarded = false;
  private readonly messages: InboxMessage[] = [];
  private wake: (() => void) | null = null;
  private seq = 0;
  private waiting: (() => void) | null = null;
  clock = new Date("2026-11-22T10:00:00Z").getTime();

  async mark(): Promise<Date> {
    return new Date(this.clock);
  }

  deliver(message: Omit<InboxMessage, "id" | "receivedAt">, receivedAt = this.clock): void {
    this.messages.push({ ...message, id: `msg_${++this.seq}`, receivedAt: new Date(receivedAt) });
    this.wake?.();
  }

  async wait(since: Date, seen: ReadonlySet<string>, ms: number): Promise<InboxMessage[]> {
    const fresh = () => this.messages.filter((m) => m.receivedAt >= since && !seen.has(m.id));
    if (fresh().length === 0) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.wake = null;
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, ms);
        this.wake = done;
        this.waiting?.();
      });
    }
    return fresh();
  }

  /** Resolves once a reader waits on this inbox with nothing new to read. */
  waited(): Promise<void> {
    return new Promise((resolve) => {
      if (this.wake) return resolve();
      this.waiting = () => {
        this.waiting = null;
        resolve();
      };
    });
  }
}

const SITE = "app.shop.example";

describe("awaitVerification", () => {
  it("waits for the site's mail and reads its code, passing over older mail and mail without a code", async () => {
    const inbox = new MemoryInbox();
    inbox.deliver(
      { from: "no-reply@shop.example", subject: "Your code", text: "Your code is 111111" },
      inbox.clock - 60_000,
    );
    const since = await inbox.mark();
    // The wait is a bound for a broken reader only: each mail below comes while the reader waits for it.
    const code = awaitVerification(inbox, "code", since, SITE, 30_000);
    await inbox.waited();
    inbox.deliver({
      from: "hello@shop.example",
      subject: "Welcome to Shop!",
      text: "Thanks for joining. Your order #44120 ships soon.",
    });
    // The welcome mail was read and passed over: the reader waits again.
    await inbox.waited();
    inbox.deliver({ from: "no-reply@shop.example", subject: "Sign-in code", text: "Your sign-in code is 482913." });
    await expect(code).resolves.toBe("482913");
  });

  it("prefers the site's own mail over another sender's", async () => {
    const inbox = new MemoryInbox();
    const since = await inbox.mark();
    inbox.deliver(
      { from: "news@other.example", subject: "Verification code", text: "Your verification code is 999111" },
      inbox.clock + 10,
    );
    inbox.deliver(
      {
        from: "Shop <no-reply@mail.shop.example>",
        subject: "Verification code",
        text: "Your verification code is 424242",
      },
      inbox.clock + 5,
    );
    await expect(awaitVerification(inbox, "code", since, SITE, 30_000)).resolves.toBe("424242");
  });

  it("takes a forwarded code or link only when the site's domain signed it (DKIM, or a trusted forwarder's ARC seal)", async () => {
    const inbox = new MemoryInbox();
    inbox.forwarded = true;
    const since = await inbox.mark();
    const unsigned = { dkim: [], arc: [] };
    inbox.deliver({
      from: "news@other.example",
      subject: "Verification code",
      text: "Your verification code is 999111",
      authenticated: { dkim: ["other.example"], arc: [] },
    });
    // A forged From: of the site, unsigned or signed by the forger's own domain.
    inbox.deliver({
      from: "Shop <no-reply@shop.example>",
      subject: "Verification code",
      text: "Your verification code is 666666",
      authenticated: unsigned,
    });
    inbox.deliver({
      from: "Shop <no-reply@shop.example>",
      subject: "Verification code",
      text: "Your verification code is 777777",
      authenticated: { dkim: ["shop-example.net"], arc: [] },
    });
    const err = await awaitVerification(inbox, "code", since, SITE, 200).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: "timeout",
      message: expect.stringContaining(
        "3 other messages came, none with it (3 not signed by shop.example: DKIM or a trusted forwarder's ARC seal)",
      ),
    });
    // A forged sign-in link on the site's own host would sign the agent in to someone else's account.
    inbox.deliver({
      from: "Shop <no-reply@shop.example>",
      subject: "Sign in",
      html: '<a href="https://app.shop.example/auth/magic?token=forged0forged0forged0">Sign in to Shop</a>',
      authenticated: unsigned,
    });
    await expect(awaitVerification(inbox, "link", since, SITE, 200)).rejects.toMatchObject({ code: "timeout" });
    // Signed by a subdomain of the site's domain (relaxed alignment); or vouched for by a forwarder's ARC seal.
    inbox.deliver(
      {
        from: "Shop <no-reply@mail.shop.example>",
        subject: "Verification code",
        text: "Your verification code is 424242",
        authenticated: { dkim: ["mail.shop.example"], arc: [] },
      },
      inbox.clock + 5,
    );
    await expect(awaitVerification(inbox, "code", since, SITE, 30_000)).resolves.toBe("424242");
    inbox.deliver(
      {
        from: "Shop <no-reply@shop.example>",
        subject: "Sign in",
        html: '<a href="https://app.shop.example/auth/magic?token=signed1signed1signed1">Sign in to Shop</a>',
        authenticated: { dkim: [], arc: ["shop.example"] },
      },
      inbox.clock + 6,
    );
    await expect(awaitVerification(inbox, "link", since, SITE, 30_000)).resolves.toBe(
      "https://app.shop.example/auth/magic?token=signed1signed1signed1",
    );
  });

  it("reads the sign-in link on the site's domain", async () => {
    const inbox = new MemoryInbox();
    const since = await inbox.mark();
    inbox.deliver({
      from: "no-reply@shop.example",
      subject: "Sign in to Shop",
      html: '<a href="https://shop.example/unsubscribe?u=1">Unsubscribe</a> <a href="https://evil.example/login?t=abc">Sign in</a> <a href="https://app.shop.example/auth/magic?token=Zm9vYmFyYmF6cXV4cXV1eA">Sign in to Shop</a>',
    });
    await expect(awaitVerification(inbox, "link", since, SITE, 30_000)).resolves.toBe(
      "https://app.shop.example/auth/magic?token=Zm9vYmFyYmF6cXV4cXV1eA",
    );
  });

  it("ends in a timeout that names the inbox and what it waited for, which is not retried", async () => {
    const inbox = new MemoryInbox();
    const since = await inbox.mark();
    const err = await awaitVerification(inbox, "link", since, SITE, 200).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LoginFlowError);
    expect(err).toMatchObject({
      code: "timeout",
      retryable: false,
      message:
        "no email with a sign-in link arrived at agent-1@mail.example.com within 0.2 s (waiting for the sign-in link)",
    });
  });

  it("says so when mail came but none held what it waited for", async () => {
    const inbox = new MemoryInbox();
    const since = await inbox.mark();
    inbox.deliver({ from: "no-reply@shop.example", subject: "Welcome", text: "Nothing to see here." });
    inbox.deliver({
      from: "no-reply@shop.example",
      subject: "Sign in",
      html: '<a href="https://evil.example/login?t=abc">Sign in</a>',
    });
    const err = await awaitVerification(inbox, "link", since, SITE, 200).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: "timeout",
      message:
        "no email with a sign-in link arrived at agent-1@mail.example.com within 0.2 s (waiting for the sign-in link; 2 other messages came, none with it)",
    });
  });
});
