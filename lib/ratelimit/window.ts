// What "N per window" means on every store: a true rolling window. A request is admitted when fewer
// than N requests were admitted in the window-length interval ending now; a refused request is not
// logged. So no interval of that length ever holds more than N admitted requests, and the time a
// refused client must wait is exactly until the oldest admitted request that still fills the window
// leaves it. Memory and Redis (memory-store.ts, redis-store.ts) implement this same rule.

/** One look at an identifier's window, identical whichever store answered. */
export interface WindowState {
  /** Recording: whether this request was admitted (and logged). Peeking: whether one would be now. */
  allowed: boolean;
  remaining: number;
  /** Milliseconds until the count next drops below the limit; 0 when nothing is logged. */
  resetInMs: number;
}

export type WindowOperation = "record" | "peek";
