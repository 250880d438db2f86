// The load generator, in its own process so it never shares an event loop with the bench
// orchestrator or the server. It reads one JSON command per line on stdin and answers each with
// one JSON line on stdout. Every request variant is built once up front: rotating keys and ids
// costs the generator nothing per request.
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { percentile } from "./stats";

export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadCommand {
  id: number;
  url: string;
  connections: number;
  durationSeconds: number;
  /** Cycled in order by every connection. */
  requests: LoadRequest[];
}

export interface LoadResult {
  id: number;
  requests: number;
  durationSeconds: number;
  p50Ms: number;
  p99Ms: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  error?: string;
}

function runLoad(command: LoadCommand): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // autocannon's own histogram has a resolution of 1 ms; sub-millisecond latencies need the raw values.
    let latencies = new Float64Array(1 << 16);
    let count = 0;
    const statuses: Record<string, number> = {};
    const instance = autocannon(
      {
        url: command.url,
        connections: command.connections,
        duration: command.durationSeconds,
        requests: command.requests,
        timeout: 10,
      },
      (error, result) => {
        if (error) return reject(error);
        const sorted = latencies.subarray(0, count).sort();
        resolve({
          id: command.id,
          requests: count,
          durationSeconds: result.duration,
          p50Ms: percentile(sorted, 50),
          p99Ms: percentile(sorted, 99),
          statuses,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      },
    );
    instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = responseTime;
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
}

const lines = createInterface({ input: process.stdin });
// One command at a time, in order: the orchestrator brackets each with CPU samples of the server.
let queue = Promise.resolve();
lines.on("line", (line) => {
  const command = JSON.parse(line) as LoadCommand;
  queue = queue.then(async () => {
    let answer: LoadResult;
    try {
      answer = await runLoad(command);
    } catch (error) {
      answer = {
        id: command.id,
        requests: 0,
        durationSeconds: 0,
        p50Ms: NaN,
        p99Ms: NaN,
        statuses: {},
        errors: 0,
        timeouts: 0,
        error: String(error),
      };
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  });
});
lines.on("close", () => void queue.then(() => process.exit(0)));
