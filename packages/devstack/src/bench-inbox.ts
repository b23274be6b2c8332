import { Database } from "@authsvc/db";
import { createRedis, InboxEvents, redisReady } from "@authsvc/queue";
import { loadConfig } from "@authsvc/config";
import type { Stack } from "./stack";

const MAILS = Number(process.env.BENCH_MAILS ?? 50);

/**
 * The inbox path: how fast mail-in takes a message over SMTP and wakes a subscriber (what a waiting login
 * sees), and whole otp_email and magic_link logins through the service, mail delivery included.
 */
export async function benchInbox(
  stack: Stack,
  key: string,
  runs: number,
  timed: <T>(fn: () => Promise<T>) => Promise<[number, T]>,
): Promise<{ smtpAccept: number[]; wake: number[]; otpEmail: number[]; magicLink: number[] }> {
  const db = Database.fromConfig(loadConfig(stack.env), 1);
  const subscriber = createRedis(stack.env.REDIS_URL!, "blocking", "bench-inbox");
  try {
    await redisReady(subscriber);
    const mailbox = async () => {
      const res = await fetch(`${stack.gatewayUrl}/v1/mailboxes`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: "{}",
      });
      return (await res.json()) as { id: string; address: string };
    };

    // SMTP accept (parse, encrypt, store, publish) and the wake-up a waiting login gets.
    const events = new InboxEvents(subscriber, stack.env.REDIS_PREFIX!);
    const box = await mailbox();
    const smtpAccept: number[] = [];
    const wake: number[] = [];
    for (let i = 0; i < MAILS; i++) {
      const watch = await events.watch(box.id);
      const started = performance.now();
      const woken = watch.next(10_000).then((ok) => (ok ? performance.now() - started : Number.NaN));
      const [ms] = await timed(() =>
        stack.sites.outbox.mail({
          to: box.address,
          subject: "Your sign-in code",
          text: `Your code is ${100000 + i}.`,
          html: `<p>Your code is <b>${100000 + i}</b>.</p>`,
        }),
      );
      smtpAccept.push(ms);
      wake.push(await woken);
      await watch.close();
    }

    const login = async (page: string, method: string, address: string) => {
      const res = await fetch(`${stack.gatewayUrl}/v1/login`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          domain: `${stack.sites.url}/cases/${page}/login`,
          login_method: method,
          cred: { email: address },
          useCache: false,
        }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${method} login answered ${res.status}`);
    };
    const series = async (page: string, method: string) => {
      const { address } = await mailbox();
      stack.sites.accounts.addUser(address, "");
      await login(page, method, address); // warm-up
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push((await timed(() => login(page, method, address)))[0]);
      return times;
    };
    return {
      smtpAccept,
      wake,
      otpEmail: await series("email-code", "otp_email"),
      magicLink: await series("magic-link", "magic_link"),
    };
  } finally {
    subscriber.disconnect();
    await db.close();
  }
}
