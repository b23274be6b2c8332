import { Router } from "express";
import { type Accounts, page } from "../accounts";
import { formCase, plainForm } from "./kit";

const NAME = "browser-seen";

/** What a site can read of a browser at its login: its headers and what its scripts see. */
export interface SeenBrowser {
  userAgentHeader: string;
  acceptLanguage: string;
  userAgent: string;
  platform: string;
  languages: string[];
  timezone: string;
  screen: { width: number; height: number };
  viewport: { width: number; height: number };
  devicePixelRatio: number;
}

/**
 * A login page that reads the browser as sites' risk checks do: a script puts what it sees (user agent,
 * platform, languages, time zone, screen, window, pixel density) in a hidden field, and the post is kept
 * with its headers, per username (`GET /__fixture/browsers-seen/:username`).
 */
export function browserSeen(accounts: Accounts): Router {
  const r = Router();
  const seen = new Map<string, SeenBrowser[]>();
  r.get("/__fixture/browsers-seen/:username", (req, res) => {
    res.json({ seen: seen.get(req.params.username) ?? [] });
  });
  const script = `document.querySelector("input[name=seen]").value = JSON.stringify({
  userAgent: navigator.userAgent, platform: navigator.platform, languages: [...navigator.languages],
  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, screen: { width: screen.width, height: screen.height },
  viewport: { width: innerWidth, height: innerHeight }, devicePixelRatio });`;
  r.use(
    formCase(accounts, NAME, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error, `<input type="hidden" name="seen" value="">`)}`, script), {
      gate: (body, req) => {
        let read: Partial<SeenBrowser> = {};
        try {
          read = JSON.parse(body.seen ?? "{}") as Partial<SeenBrowser>;
        } catch {
          // A post without the script's reading: only the headers are kept.
        }
        const username = body.username ?? "";
        seen.set(username, [...(seen.get(username) ?? []), { ...(read as SeenBrowser), userAgentHeader: String(req.headers["user-agent"] ?? ""), acceptLanguage: String(req.headers["accept-language"] ?? "") }]);
        return null;
      },
    }),
  );
  return r;
}
