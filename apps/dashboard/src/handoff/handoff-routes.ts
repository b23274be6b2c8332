import { Router, json, type Request, type Response } from "express";
import type { Database } from "@authsvc/db";
import { readHandoffToken } from "@authsvc/jobs";
import type { Logger } from "@authsvc/logging";
import { LIVE_KEYS, type HandoffRelay, type LiveInput, type LiveKey } from "@authsvc/queue";
import { html } from "../html/html";

// How often the page's stream reads the job's state, and tells the worker someone watches.
const STATUS_EVERY_MS = 1000;
const VIEWER_EVERY_MS = 5000;
const KEYS = new Set<string>(LIVE_KEYS);

export interface HandoffDeps {
  db: Database;
  relay: HandoffRelay;
  fingerprintKey: Buffer;
  /** This dashboard's own origin: the page's posts must come from it. */
  ownOrigin: (req: Request) => string;
  log: Logger;
}

type HandoffJob = NonNullable<Awaited<ReturnType<Database["authJobs"]["forHandoff"]>>>;

/** What the status line says: what the service waits for, and at the end, how it ended. */
function statusOf(job: HandoffJob, run: number): { text: string; final: boolean } {
  if (job.status === "succeeded") return { text: "Signed in. You can close this page.", final: true };
  if (job.status === "failed")
    return { text: `Stopped: ${job.errorMessage || job.errorCode || "the sign-in did not finish"}`, final: true };
  if (job.attempts !== run) return { text: "This hand-off has ended.", final: true };
  const asked = job.pendingInput as { prompt?: string } | null;
  return {
    text: asked?.prompt ? `Waiting for you. The site says: ${asked.prompt}` : "Checking the site's answer…",
    final: false,
  };
}

/**
 * The hosted hand-off page, for the person an agent platform sends it to: no API key, no account, only the
 * token (see `handoffToken`). It names the organization and the site, shows the job's page live and
 * forwards the person's pointer, wheel, keys and pasted text to it; a status line says what the service
 * waits for, then how it ended. Once the job ended the token answers 410. Any replica serves any hand-off:
 * frames and input go through Redis (`HandoffRelay`) to the worker that holds the page.
 */
export function handoffRoutes(deps: HandoffDeps): Router {
  const { db, relay } = deps;
  const r = Router();

  /** The job a token names, while that run of it waits or works; answers 404 or 410 itself otherwise. */
  async function jobOf(req: Request, res: Response): Promise<{ job: HandoffJob; run: number } | null> {
    const token = readHandoffToken(deps.fingerprintKey, String(req.params.token ?? ""));
    const job = token ? await db.authJobs.forHandoff(token.jobId) : null;
    if (!token || !job) {
      res.status(404).type("text/plain").send("No such hand-off.");
      return null;
    }
    if (job.status !== "running" || job.attempts !== token.run) {
      res.status(410).type("text/plain").send("This hand-off has ended.");
      return null;
    }
    return { job, run: token.run };
  }

  r.get("/handoff/:token", async (req, res) => {
    const found = await jobOf(req, res);
    if (!found) return;
    const { job, run } = found;
    const status = statusOf(job, run);
    const origin = new URL(job.loginUrl).origin;
    const page = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Finish signing in to ${origin}</title><link rel="stylesheet" href="/assets/app.css"></head>
<body class="handoff"><main>
<h1>Finish signing in to ${origin}</h1>
<p>${job.org.name} asks you to finish this sign-in. Use the page below as you would in your own browser: click, type, press Enter.</p>
<p role="status" id="handoff-status">${status.text}</p>
<img id="live-view" alt="Live view" tabindex="0" data-token="${String(req.params.token)}" class="live-view">
</main><script src="/assets/handoff.js"></script></body></html>`;
    res.type("html").send(page.toString());
  });

  // The page's stream (Server-Sent Events): `frame` (a JPEG of the page), `status` (the status line).
  r.get("/handoff/:token/stream", async (req, res) => {
    const found = await jobOf(req, res);
    if (!found) return;
    const { job, run } = found;
    const channels = relay.channels(job.id);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" });
    res.flushHeaders();
    const send = (event: string, data: string) => res.write(`event: ${event}\ndata: ${data}\n\n`);
    let last = "";
    let ended = false;
    let stopFrames: (() => Promise<void>) | null = null;
    const timers: NodeJS.Timeout[] = [];
    const finish = () => {
      if (ended) return;
      ended = true;
      timers.forEach(clearInterval);
      void stopFrames?.();
      res.end();
    };
    // Registered first: a viewer that leaves while the stream starts still ends it.
    req.on("close", finish);
    const listening = await relay.listen(channels.frames, (frame) => send("frame", frame));
    if (ended) return void listening();
    stopFrames = listening;
    const viewer = () => void relay.publish(channels.toPage, JSON.stringify({ kind: "viewer" })).catch(() => undefined);
    viewer();
    timers.push(setInterval(viewer, VIEWER_EVERY_MS));
    const tell = async () => {
      const now = await db.authJobs.forHandoff(job.id).catch(() => null);
      if (!now) return;
      const status = statusOf(now, run);
      if (JSON.stringify(status) !== last) {
        last = JSON.stringify(status);
        send("status", last);
      }
      if (status.final) finish();
    };
    timers.push(setInterval(() => void tell(), STATUS_EVERY_MS));
    await tell();
  });

  // One input event of the person, for the worker that holds the page.
  r.post("/handoff/:token/input", json({ limit: "8kb" }), async (req, res) => {
    if (req.get("origin") !== deps.ownOrigin(req))
      return res.status(403).type("text/plain").send("Cross-origin input is refused.");
    const event = liveInput(req.body);
    if (!event) return res.status(400).type("text/plain").send("Not an input event.");
    const found = await jobOf(req, res);
    if (!found) return;
    await relay.publish(relay.channels(found.job.id).toPage, JSON.stringify({ kind: "input", event }));
    res.status(204).end();
  });

  return r;
}

/** A well-formed input event, or null. */
function liveInput(body: unknown): LiveInput | null {
  const b = (body ?? {}) as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && Math.abs(v) < 100_000 ? v : null);
  if (b.type === "click" && n(b.x) !== null && n(b.y) !== null)
    return { type: "click", x: b.x as number, y: b.y as number };
  if (b.type === "wheel" && [b.x, b.y, b.dx, b.dy].every((v) => n(v) !== null))
    return { type: "wheel", x: b.x as number, y: b.y as number, dx: b.dx as number, dy: b.dy as number };
  if (b.type === "text" && typeof b.text === "string" && b.text.length > 0 && b.text.length <= 1000)
    return { type: "text", text: b.text };
  if (b.type === "key" && typeof b.key === "string" && KEYS.has(b.key)) return { type: "key", key: b.key as LiveKey };
  return null;
}

/** Where the hosted hand-off pages live (their own content policy: frames are data: images, the stream is ours). */
export const HANDOFF_PATH = "/handoff/";
