import { errorMessage, fail, pass, warn, type Check, type DoctorContext } from "./check";
import { measureSkew, SKEW_WARN_MS, skewVerdict } from "./clock-skew";
import { describeStore } from "./describe";
import { STORE_TIMEOUT_MS, type RemoteStoreTarget } from "./targets";

// Where the per-key limit is counted, whether that store answers, and its clock.

const SHARED_STORE_FIX =
  "Set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (serverless) or REDIS_URL (self-hosted) so all instances share one limit.";

// A PING, then TIME: each bounded by the client's own timeout; this is the backstop.
const storeBound = () => ({ ms: 2 * STORE_TIMEOUT_MS + 500, waitsOn: "the rate-limit store" });

/** The store, or null for the in-memory one and for a store the rate-limit check found unreachable. */
async function reachedStore({ store }: DoctorContext): Promise<RemoteStoreTarget | null> {
  if (store.kind === "memory") return null;
  return store.reach().then(
    () => store,
    () => null,
  );
}

const rateLimitStore: Check = {
  name: "rate-limit-store",
  bound: storeBound,
  async run({ env, store }) {
    const where = describeStore(env);
    if (store.kind === "memory") {
      const production = env.NODE_ENV === "production" || env.serverless;
      return production
        ? warn(`${where}: with several instances, a key gets the limit on each of them`, SHARED_STORE_FIX)
        : pass(where);
    }
    try {
      return pass(`${where}, answered PING in ${await store.reach()} ms`);
    } catch (error) {
      const settings =
        store.kind === "upstash"
          ? "that UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are right"
          : "that REDIS_URL is right (rediss:// for TLS)";
      return fail(
        `${where} did not answer: ${errorMessage(error)}; until it does, each instance limits on its own`,
        `Check that the store is up and reachable from this machine, and ${settings}.`,
      );
    }
  },
};

// Redis's clock decides the limit's window (lib/ratelimit/lua.ts) and the reset goes back as a duration, so a
// skew to this machine changes no decision: it only warns of a host that keeps bad time.
const redisClock: Check = {
  name: "redis-clock",
  bound: storeBound,
  async run(context) {
    const store = await reachedStore(context);
    if (!store) return null;
    const whose = store.kind === "upstash" ? "Upstash's" : "Redis's";
    try {
      const skew = await measureSkew(() => store.time());
      return skewVerdict(
        skew,
        whose,
        "the limit's window follows Redis's clock, a sign of a host that keeps bad time",
        {
          warnMs: SKEW_WARN_MS,
        },
      );
    } catch (error) {
      if (!/unknown command|disabled|not allowed|NOPERM/i.test(errorMessage(error))) throw error;
      return pass(`not measured: the store refuses TIME, so the limit's window follows each instance's clock`);
    }
  },
};

export const STORE_CHECKS: Check[] = [rateLimitStore, redisClock];
