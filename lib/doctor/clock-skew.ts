import { fail, pass, warn, type Verdict } from "./check";

// How far another machine's clock is from this one's. The other clock is read once; it was read somewhere
// during the round trip, so the best estimate is the round trip's midpoint, give or take half of it.

export interface ClockSkew {
  /** The other clock minus this one, in ms: positive when it is ahead. */
  skewMs: number;
  /** Half the round trip: the skew is known to within this. */
  uncertaintyMs: number;
}

/** Reads another clock (ms since the epoch) and measures it against Date.now(). */
export async function measureSkew(readClock: () => Promise<number>): Promise<ClockSkew> {
  const sentAt = Date.now();
  const remoteMs = await readClock();
  const receivedAt = Date.now();
  return skewFrom({ sentAt, receivedAt, remoteMs });
}

export function skewFrom({
  sentAt,
  receivedAt,
  remoteMs,
}: {
  sentAt: number;
  receivedAt: number;
  remoteMs: number;
}): ClockSkew {
  return { skewMs: remoteMs - (sentAt + receivedAt) / 2, uncertaintyMs: (receivedAt - sentAt) / 2 };
}

const duration = (ms: number) => (ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`);

export interface SkewLimits {
  warnMs: number;
  /** Past this the check fails; absent, a skew only ever warns. */
  failMs?: number;
}

export const SKEW_WARN_MS = 1_000;
export const SKEW_FAIL_MS = 30_000;

/** `whose`: "PostgreSQL's"; `why`: what a skew breaks, for the warning. */
export function skewVerdict(
  { skewMs, uncertaintyMs }: ClockSkew,
  whose: string,
  why: string,
  limits: SkewLimits,
): Verdict {
  const size = Math.abs(skewMs);
  const within = `±${duration(Math.max(uncertaintyMs, 1))}`;
  if (size <= Math.max(uncertaintyMs, 1)) return pass(`${whose} clock agrees with this machine's (${within})`);
  const detail = `${whose} clock is ${duration(size)} ${skewMs > 0 ? "ahead of" : "behind"} this machine's (${within})`;
  const fix =
    "Synchronise the clocks with NTP (e.g. `timedatectl set-ntp true`, or chrony) on this machine and the server.";
  if (limits.failMs !== undefined && size > limits.failMs) return fail(`${detail}: ${why}`, fix);
  if (size > limits.warnMs) return warn(`${detail}: ${why}`, fix);
  return pass(detail);
}
