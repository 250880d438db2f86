import { ApiError } from "@/lib/errors";
import { RETRY_AFTER_HEADER } from "@/lib/header-names";
import { createRateLimiter, RATE_LIMIT_WINDOW_SECONDS } from "@/lib/ratelimit/policies";

// Pings and redeliveries are pushes a person asks for, one request each: without a budget, one organization could
// queue them faster than every organization's deliveries are sent (issue 34: 12.5 pings a second, none refused).
// Counted per organization in the shared limiter (Redis or Upstash when configured, else this process's memory),
// from the settings page and the CLI alike.

/** Pings and redeliveries per organization per rolling minute. */
export const PUSHES_PER_MINUTE = 30;

export async function takePushBudget(organizationId: string): Promise<void> {
  const limiter = createRateLimiter({
    prefix: "webhooks:push",
    limit: PUSHES_PER_MINUTE,
    windowSeconds: RATE_LIMIT_WINDOW_SECONDS,
  });
  const result = await limiter.limit(organizationId);
  if (result.success) return;
  const seconds = Math.max(1, Math.ceil((result.reset - Date.now()) / 1000));
  throw new ApiError(
    "rate_limited",
    `This organization has sent ${PUSHES_PER_MINUTE} pings and redeliveries in the last minute, the most it may: try again in ${seconds} s.`,
    { headers: { [RETRY_AFTER_HEADER]: String(seconds) } },
  );
}
