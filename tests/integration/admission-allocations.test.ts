import { createHook } from "node:async_hooks";
import { Session } from "node:inspector/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as sundownList } from "@/app/api/v1/reports/route";
import { bearer, mintKey } from "../helpers/keys";

// What one warm keyed list (GET /api/v1/reports) creates, Sundown's handler against the anchor's (bench/anchor: the
// same request written by hand on bare Next.js, key and page in one statement, as `npm run bench:handlers` times
// them): promises, timers and bytes allocated. These are the hot path's costs a machine cannot blur: CPU time
// moves by a third from run to run on a shared machine (bench/findings.md), a count does not. Both handlers are
// called in this process, on the same database, with no HTTP server between. Counted: the handler's work up to its
// Response (its body is then read, outside the count: the same for both, and it differs between Node versions).
//
// PostgreSQL only: the anchor reads it with `pg`.

const ON_POSTGRES = Boolean(process.env.DATABASE_URL);
const LIST = "http://localhost:3000/api/v1/reports";
const WARM = 30;
const COUNTED = 15;
const SAMPLED = 60;

type Handler = () => Promise<Response>;

/** Async resources created while `work` runs, by type (PROMISE, Timeout, Immediate, …). */
async function asyncResources(work: () => Promise<void>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const hook = createHook({
    init(_id, type) {
      counts[type] = (counts[type] ?? 0) + 1;
    },
  });
  hook.enable();
  try {
    await work();
  } finally {
    hook.disable();
  }
  return counts;
}

/**
 * Promises and timers one call creates: the fewest over COUNTED calls. The hook sees the whole process, and what
 * else runs meanwhile (the test runner's messages, a pool's upkeep) only ever adds to a call's count.
 */
async function perCall(call: Handler): Promise<{ promises: number; timers: number }> {
  const promises: number[] = [];
  const timers: number[] = [];
  for (let i = 0; i < COUNTED; i++) {
    let response: Response | undefined;
    const counts = await asyncResources(async () => {
      response = await call();
    });
    await response!.text();
    promises.push(counts.PROMISE ?? 0);
    timers.push((counts.Timeout ?? 0) + (counts.Immediate ?? 0));
  }
  return { promises: Math.min(...promises), timers: Math.min(...timers) };
}

/**
 * Bytes allocated per call, from V8's sampling heap profiler with the objects the young and the old generation's
 * collections freed kept in the profile: everything the calls allocated, not what survived them. A sampled estimate
 * (one sample per 256 bytes on average), over SAMPLED calls.
 */
async function bytesPerCall(session: Session, call: Handler): Promise<number> {
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < SAMPLED; i++) await (await call()).text();
  const { profile } = await session.post("HeapProfiler.stopSampling");
  type Node = { selfSize: number; children: Node[] };
  const total = (node: Node): number => node.selfSize + node.children.reduce((sum, child) => sum + total(child), 0);
  return total(profile.head as Node) / SAMPLED;
}

describe.skipIf(!ON_POSTGRES)("what one warm keyed list creates, against the anchor's (PostgreSQL only)", () => {
  let sundown: Handler;
  let anchor: Handler;

  beforeAll(async () => {
    const { key } = await mintKey("acme");
    const routeContext = { params: Promise.resolve({}) };
    const { GET: anchorList } = await import("../../bench/anchor/app/api/v1/reports/route");
    sundown = () => sundownList(new Request(LIST, { headers: bearer(key) }), routeContext);
    anchor = () => anchorList(new Request(LIST, { headers: bearer(key) }));
    // Warm: modules loaded, the key known to this process, the contact details held, code optimized.
    for (const call of [sundown, anchor]) {
      for (let i = 0; i < WARM; i++) {
        const response = await call();
        expect(response.status).toBe(200);
        await response.text();
      }
    }
  });

  it("promises and timers: near the anchor's", async () => {
    const ours = await perCall(sundown);
    const theirs = await perCall(anchor);
    // Sundown does more than the anchor by design, each step a promise or two: the error and log layer
    // (withRequest), the rate-limit store's interface (memory or Redis behind one promise), the database layer's
    // bounded queries (lib/db/bounded-pool.ts). 21 against the anchor's 15 (1.4×) when this bound was set, down
    // from 33 (2.2×) before the key lookup, the reader and the bounded pool lost their async layers (pg's callback
    // forms inside one promise) and from 41 (2.7×) before admission lost its: 1.5× leaves one promise of room, not
    // an async layer per function again.
    expect(ours.promises / theirs.promises).toBeLessThanOrEqual(1.5);
    // The anchor's one timer is pg-pool's idle timer on release. Ours adds the one deadline that bounds a hung
    // database: the statement's read timeout (lib/db/bounded-pool.ts); a warm checkout of an idle connection arms no
    // wait timer, and none is the request's own.
    expect(ours.timers - theirs.timers).toBeLessThanOrEqual(1);
  });

  it("bytes allocated: near the anchor's", async () => {
    const session = new Session();
    session.connect();
    try {
      // Alternated and repeated, the fewest bytes of each kept: what the process does meanwhile only adds.
      const ours: number[] = [];
      const theirs: number[] = [];
      for (let round = 0; round < 5; round++) {
        ours.push(await bytesPerCall(session, sundown));
        theirs.push(await bytesPerCall(session, anchor));
      }
      // Sundown checks the input, the database's JSON and the output with zod, scrubs contact details, and
      // builds its headers and log fields, all of which the anchor leaves out: 1.28× (59 KB against 46 KB on the
      // test database) when this bound was set, down from 1.32× (61 KB) before the database layer's promises went.
      // 1.35× is that and the sampling's noise (±2% between rounds).
      expect(Math.min(...ours) / Math.min(...theirs)).toBeLessThanOrEqual(1.35);
    } finally {
      session.disconnect();
    }
  });
});
