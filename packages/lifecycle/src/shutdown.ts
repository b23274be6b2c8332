import type { Logger } from "@authsvc/logging";

/** One thing to close. Steps of one stage close together; stages close in order. */
export interface ShutdownStep {
  name: string;
  close: () => unknown;
}

export interface ShutdownPlan {
  log: Logger;
  /** Past this, the process exits with status 1 whatever is still closing. */
  timeoutMs: number;
  /** What the log says when the deadline passes (e.g. what happens to work still running). */
  timeoutMessage?: string;
  /** Called first, synchronously: fail health checks, stop taking work. */
  onStart?: (signal: string) => void;
  stages: ShutdownStep[][];
  exit?: (code: number) => void;
}

/**
 * The one ordered shutdown of every app: on SIGTERM or SIGINT (once), run the stages in order — each
 * stage's steps together, a step's failure logged and not stopping the rest — then exit 0; past the
 * deadline, exit 1. Returns `shutdown` for a caller that stops the process itself.
 */
export function shutdownOnSignals(plan: ShutdownPlan): {
  shutdown: (signal: string) => Promise<void>;
  readonly stopping: boolean;
} {
  const exit = plan.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    plan.onStart?.(signal);
    plan.log.info({ signal }, "shutting down");
    const forced = setTimeout(() => {
      plan.log.error(plan.timeoutMessage ?? "shutdown timed out; exiting");
      exit(1);
    }, plan.timeoutMs);
    for (const stage of plan.stages) {
      const results = await Promise.allSettled(stage.map(async (step) => step.close()));
      results.forEach((result, i) => {
        if (result.status === "rejected")
          plan.log.warn({ step: stage[i]!.name, err: String(result.reason) }, "shutdown step failed");
      });
    }
    clearTimeout(forced);
    plan.log.info("stopped");
    exit(0);
  };
  const onSignal = (signal: string) => () => void shutdown(signal);
  // Kept for the process's life: a second signal (Ctrl-C twice, an orchestrator sending again) must not
  // fall through to Node's default handler and kill jobs that are finishing.
  process.on("SIGTERM", onSignal("SIGTERM"));
  process.on("SIGINT", onSignal("SIGINT"));
  return {
    shutdown,
    get stopping() {
      return stopping;
    },
  };
}
