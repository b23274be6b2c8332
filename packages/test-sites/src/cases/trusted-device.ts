import { randomBytes } from "node:crypto";
import { type Response, Router, urlencoded } from "express";
import { type Accounts, page, readCookie } from "../accounts";
import { base, formCase, plainForm, sessionCookie, startSession } from "./kit";
import { defineCase } from "./login-case";

const NAME = "trusted-device";
// How long the site trusts a device, and how long its "remember me" session lasts: both outlive the visit.
const DEVICE_MS = 400 * 24 * 3600_000;
const SESSION_MS = 30 * 24 * 3600_000;

/**
 * A site that remembers devices after its second factor, as most do: the authenticator's code is asked
 * unless the browser brings back the device cookie this account's code was answered with (`known_device`,
 * 400 days) from the address it was answered from; a right code sets it. Its session cookie lasts 30 days ("remember me"), and its login page
 * sends a signed-in visitor on to the account: a kept session must never pass for the device. Like most
 * sites it runs analytics, whose first-party cookie (`_ga_td`, two years) takes a new value at every page view.
 * `GET /__fixture/device-prompts/:username`: how often the code was asked, the client address of each login
 * post, and how often the login page was opened with the account's device cookie (`views`: the logins, and
 * any look the service takes at the page to tell the device's cookies from the session's).
 */
function trustedDevice(accounts: Accounts): Router {
  // Each device cookie the site set: whose, and the address it came from (a new address is a new device).
  const devices = new Map<string, { username: string; address: string }>();
  const addresses = new Map<string, string[]>();
  const prompts = new Map<string, number>();
  const views = new Map<string, number>();
  const pending = new Map<string, string>();
  const r = Router();
  r.get("/__fixture/device-prompts/:username", (req, res) => {
    res.json({
      prompts: prompts.get(req.params.username) ?? 0,
      addresses: addresses.get(req.params.username) ?? [],
      views: views.get(req.params.username) ?? 0,
    });
  });
  r.use(base(NAME), (req, res, next) => {
    if (req.method === "GET")
      res.cookie("_ga_td", `GS1.1.${Date.now()}.${randomBytes(4).toString("hex")}`, {
        path: "/",
        sameSite: "lax",
        maxAge: 2 * 365 * 24 * 3600_000,
      });
    next();
  });
  const signIn = (res: Response, username: string) => {
    startSession(res, accounts, NAME, username, SESSION_MS);
    res.redirect(302, `${base(NAME)}/account`);
  };
  // A signed-in visitor is sent on from the login page.
  r.get(`${base(NAME)}/login`, (req, res, next) => {
    const device = devices.get(readCookie(req.headers.cookie, "known_device") ?? "");
    if (device) views.set(device.username, (views.get(device.username) ?? 0) + 1);
    if (accounts.sessionUser(readCookie(req.headers.cookie, sessionCookie(NAME))))
      return res.redirect(302, `${base(NAME)}/account`);
    next();
  });
  const prompt = (error?: string) =>
    page(
      "Two-step verification",
      `<h1>Two-step verification</h1><p>This device is new to us. Enter the 6-digit code from your authenticator app.</p>${error ? `<p role="alert">${error}</p>` : ""}
<form method="post" action="${base(NAME)}/verify"><label>Code <input name="otp" inputmode="numeric" autocomplete="one-time-code" maxlength="6"></label><button type="submit">Verify</button></form>`,
    );
  r.get(`${base(NAME)}/verify`, (_req, res) => {
    res.type("html").send(prompt());
  });
  r.post(`${base(NAME)}/verify`, urlencoded({ extended: false }), (req, res) => {
    const ticket = readCookie(req.headers.cookie, "device_pending") ?? "";
    const username = pending.get(ticket);
    if (!username) return res.redirect(302, `${base(NAME)}/login`);
    if (!accounts.checkTotp(username, String((req.body as Record<string, string>).otp ?? "")))
      return res.type("html").send(prompt("That code didn't work. Check your authenticator app."));
    pending.delete(ticket);
    const device = randomBytes(16).toString("hex");
    devices.set(device, { username, address: req.socket.remoteAddress ?? "" });
    res
      .cookie("known_device", device, { httpOnly: true, path: "/", sameSite: "lax", maxAge: DEVICE_MS })
      .clearCookie("device_pending", { path: "/" });
    signIn(res, username);
  });
  r.use(
    formCase(accounts, NAME, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error)}`), {
      onSuccess: (req, res, username) => {
        const address = req.socket.remoteAddress ?? "";
        addresses.set(username, [...(addresses.get(username) ?? []), address]);
        const known = devices.get(readCookie(req.headers.cookie, "known_device") ?? "");
        if (known?.username === username && known.address === address) return signIn(res, username);
        prompts.set(username, (prompts.get(username) ?? 0) + 1);
        const ticket = randomBytes(16).toString("hex");
        pending.set(ticket, username);
        res.cookie("device_pending", ticket, { httpOnly: true, path: "/" }).redirect(302, `${base(NAME)}/verify`);
      },
    }),
  );
  return r;
}

export const trustedDeviceCase = defineCase({ router: ({ accounts }) => trustedDevice(accounts) });
