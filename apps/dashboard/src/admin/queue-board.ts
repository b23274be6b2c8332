import type { Router } from "express";
import type { Queue } from "bullmq";
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";

/**
 * bull-board's view of our queues, for platform staff (mounted behind the admin check). Read-only: a job
 * is run again through "Replay", which keeps the rules (stored inputs, the refused-password confirmation);
 * a raw BullMQ retry would not.
 */
export function queueBoard(basePath: string, queues: Queue[]): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(basePath);
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: true })),
    serverAdapter,
    options: { uiConfig: { boardTitle: "authsvc queues" } },
  });
  return serverAdapter.getRouter() as Router;
}
