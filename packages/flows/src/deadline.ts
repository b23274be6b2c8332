import { LoginFlowError } from "./flow-error";

/** The time a flow has left; every wait in a flow takes its timeout from here. */
export class Deadline {
  private readonly at: number;

  constructor(ms: number) {
    this.at = Date.now() + ms;
  }

  remaining(): number {
    return Math.max(0, this.at - Date.now());
  }

  /** Throws `timeout` naming the step that ran out of time. */
  check(step: string): void {
    if (this.remaining() === 0) throw this.expired(step);
  }

  /** The `timeout` naming the step that ran out of time (a watch that ended on the deadline throws it). */
  expired(step: string): LoginFlowError {
    return new LoginFlowError("timeout", `timed out while ${step}`);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
