import { after } from "next/server";
import { log } from "@/lib/log";
import { deliverDue } from "./deliver";
import { wakeDeliveryLoop } from "./loop";

/**
 * Delivers what a request just queued: the instance's loop when it runs one, else once the response is sent
 * (after(): on a serverless platform the function stays alive for it). Call from request scope only.
 */
export function deliverSoon(): void {
  if (wakeDeliveryLoop()) return;
  after(() => deliverDue().catch((error: Error) => log("warn", "webhook delivery failed", { error: error.message })));
}
