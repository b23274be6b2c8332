import express, { urlencoded } from "express";
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** How the fake provider behaves; tests change it between solves. */
export interface ProviderBehaviour {
  /** The API key it accepts; any other gets ERROR_KEY_DOES_NOT_EXIST. */
  key: string;
  /** Polls answered CAPCHA_NOT_READY before the token (a slow solve). */
  notReadyPolls: number;
  /** res.php answers this error code instead of the token (ERROR_CAPTCHA_UNSOLVABLE). */
  failWith?: string;
}

export interface CaptchaProvider {
  url: string;
  behaviour: ProviderBehaviour;
  /** Every task submitted to in.php, as its form fields (the key left out). */
  tasks: Array<Record<string, string>>;
  polls: number;
  close(): Promise<void>;
}

/**
 * A CAPTCHA solving service on 127.0.0.1 that speaks 2captcha's API (in.php, then res.php until ready,
 * `json=1` answers). It "solves" a task the way a real one hands back a token: it gets one from the
 * site's CAPTCHA service for the task's page (a fixture case's `captcha/token`).
 */
export function startCaptchaProvider(behaviour: ProviderBehaviour): Promise<CaptchaProvider> {
  const app = express();
  const pending = new Map<string, { pageurl: string; polls: number }>();
  const provider = { behaviour, tasks: [] as Array<Record<string, string>>, polls: 0 };
  app.post("/in.php", urlencoded({ extended: false }), (req, res) => {
    const { key, ...task } = req.body as Record<string, string>;
    if (key !== provider.behaviour.key) return res.json({ status: 0, request: "ERROR_KEY_DOES_NOT_EXIST" });
    provider.tasks.push(task);
    if (!["userrecaptcha", "hcaptcha", "turnstile"].includes(task.method ?? ""))
      return res.json({ status: 0, request: "ERROR_BAD_PARAMETERS" });
    if (!(task.googlekey || task.sitekey) || !task.pageurl)
      return res.json({ status: 0, request: "ERROR_WRONG_GOOGLEKEY" });
    const id = String(randomBytes(4).readUInt32BE());
    pending.set(id, { pageurl: task.pageurl, polls: 0 });
    res.json({ status: 1, request: id });
  });
  app.get("/res.php", async (req, res) => {
    const { key, action, id } = req.query as Record<string, string>;
    provider.polls++;
    if (key !== provider.behaviour.key) return res.json({ status: 0, request: "ERROR_KEY_DOES_NOT_EXIST" });
    const task = action === "get" ? pending.get(id ?? "") : undefined;
    if (!task) return res.json({ status: 0, request: "ERROR_WRONG_CAPTCHA_ID" });
    if (task.polls++ < provider.behaviour.notReadyPolls) return res.json({ status: 0, request: "CAPCHA_NOT_READY" });
    pending.delete(id!);
    if (provider.behaviour.failWith) return res.json({ status: 0, request: provider.behaviour.failWith });
    const site = await fetch(new URL("captcha/token", task.pageurl), { method: "POST" }).catch(() => null);
    if (!site?.ok) return res.json({ status: 0, request: "ERROR_CAPTCHA_UNSOLVABLE" });
    res.json({ status: 1, request: ((await site.json()) as { token: string }).token });
  });
  return new Promise((resolve) => {
    const server: Server = app.listen(0, "127.0.0.1", () => {
      resolve(
        Object.assign(provider, {
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done());
              server.closeAllConnections();
            }),
        }),
      );
    });
  });
}
