import { log } from "@/lib/log";
import { deliverDue } from "./deliver";

// Under `next start` (and `next dev`) each instance delivers in the background: a pass whenever something was
// queued in this process, and every POLL_MS for what other instances, the CLI, or retries made due. Serverless
// platforms have no background: there, delivery runs after the request that queued it and from the cron route.

const POLL_MS = 2_000;

let loop: { wake: () => void } | undefined;

export function startDeliveryLoop(): void {
  if (loop) return;
  // A wake during a pass is remembered, so the next pass starts at once instead of after the poll interval.
  let woken = false;
  let interrupt: (() => void) | undefined;
  loop = {
    wake: () => {
      woken = true;
      interrupt?.();
    },
  };
  const sleep = () =>
    new Promise<void>((resolve) => {
      if (woken) return resolve();
      const timer = setTimeout(resolve, POLL_MS);
      timer.unref();
      interrupt = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  void (async () => {
    for (;;) {
      woken = false;
      interrupt = undefined;
      try {
        // A pass that attempted anything may have left more due (a pass takes a few of each organization's, up
        // to PASS_SIZE): keep going until one finds nothing.
        while ((await deliverDue()).attempted > 0);
      } catch (error) {
        log("warn", "webhook delivery pass failed", { error: (error as Error).message });
      }
      await sleep();
    }
  })();
}

/** Starts a pass now, if this process runs the loop. False when it does not (serverless, CLI). */
export function wakeDeliveryLoop(): boolean {
  loop?.wake();
  return loop !== undefined;
}
