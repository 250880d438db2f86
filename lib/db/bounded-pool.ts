import net from "node:net";
import pg from "pg";

// A hung database (a stopped server, a link that drops packets without a reset) answers nothing, and a
// request waiting on it would wait for the kernel's TCP timeouts. Every query here ends within
// `timeoutMs` in all, waiting for a connection included, so the API can answer 503 in bounded time.
//
// The limit is kept by the client, not sent as the `statement_timeout` startup parameter: transaction-mode
// poolers (PgBouncer, Neon's, Supavisor) refuse a connection that carries one ("unsupported startup
// parameter"), and a `SET` would stay behind on a server connection other clients share. So that the server
// does not go on working for no one, a statement that outlives the limit is cancelled with the protocol's
// CancelRequest, which poolers pass on to the server connection running it.

/** pg's own per-query read timeout, which its QueryConfig type leaves out. */
type TimedQueryConfig = pg.QueryConfig & { query_timeout?: number };

const READ_TIMEOUT_MESSAGE = "Query read timeout";
const CANCEL_REQUEST_CODE = 80_877_102;
// How long a timed-out query waits for its cancel request to be taken (one round trip to a live server or
// pooler) before its error is returned: a hung server never answers it, and the caller is already late.
const CANCEL_WAIT_MS = 250;

/** pg.Client's fields for where it connected and the key that cancels its statement, which its type omits. */
interface CancelTarget {
  host: string;
  port: number;
  processID: number | null;
  secretKey: number | null;
}

/**
 * Asks the server to cancel the statement running for `target`; settles when the server (or the pooler) has
 * closed the cancel connection, or after `timeoutMs`: the server may be the very thing that hangs.
 */
function sendCancelRequest({ host, port, processID, secretKey }: CancelTarget, timeoutMs: number): Promise<void> {
  if (processID === null || secretKey === null) return Promise.resolve();
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  message.writeInt32BE(processID, 8);
  message.writeInt32BE(secretKey, 12);
  return new Promise((resolve) => {
    const socket = host.startsWith("/") ? net.connect(`${host}/.s.PGSQL.${port}`) : net.connect(port, host);
    socket.setTimeout(timeoutMs, () => socket.destroy());
    socket.on("error", () => socket.destroy());
    socket.on("close", () => resolve());
    // Written, not ended: the server closes it when done, and PgBouncer 1.18 crashes ("bad client state")
    // when a cancel connection half-closes while its cancel is under way.
    socket.write(message);
  });
}

/** pg.Pool hands its own options to each new Client: this one also needs how long a cancel may take. */
type BoundedClientConfig = pg.ClientConfig & { cancelWaitMs?: number };

/**
 * A connection that ends itself when a statement outlives its read timeout. pg only stops waiting: the
 * statement is still on the wire, and a connection handed back to the pool (as Prisma's transactions do,
 * without the error) would answer the next user's query with the old one's late reply, or leave it inside
 * an unfinished transaction. Ending it discards it and makes the server roll back.
 *
 * The statement is cancelled first, and the error reaches the caller only once the connection is ending: a
 * pooler forwards a cancel only while the client asking is still linked to the server connection running the
 * statement, and the pool and Prisma (its ROLLBACK) must find the connection already closed.
 */
class BoundedClient extends pg.Client {
  private readonly cancelWaitMs: number;

  constructor(config?: BoundedClientConfig) {
    super(config);
    this.cancelWaitMs = config?.cancelWaitMs ?? CANCEL_WAIT_MS;
    // Wrapped per instance rather than overridden: one function stands for all of pg's overloads. The
    // prototype's query is looked up on each call, as `super.query` would be.
    this.query = ((...args: unknown[]) => {
      const result = (pg.Client.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
      if (!(result instanceof Promise)) return result;
      return result.catch(async (error: unknown) => {
        if (isReadTimeout(error)) await this.endAfterReadTimeout();
        throw error;
      });
    }) as pg.Client["query"];
  }

  /** Cancels the statement that outlived its read timeout, then ends the connection; settles once it is ending. */
  async endAfterReadTimeout(): Promise<void> {
    await sendCancelRequest(this as unknown as CancelTarget, this.cancelWaitMs);
    void this.end();
  }
}

function isReadTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === READ_TIMEOUT_MESSAGE;
}

export interface BoundedPoolOptions {
  url: string;
  max: number;
  /** The longest a query may take, waiting for a connection plus running the statement. */
  timeoutMs: number;
}

/** A pg Pool (Prisma's adapter takes it as one) whose promise queries each finish within `timeoutMs`. */
export class BoundedPool extends pg.Pool {
  private readonly timeoutMs: number;

  constructor({ url, max, timeoutMs }: BoundedPoolOptions) {
    const config: pg.PoolConfig & BoundedClientConfig = {
      connectionString: url,
      max,
      Client: BoundedClient as unknown as new () => pg.ClientBase,
      // Waiting for a pooled connection and opening a new one: a hung database cannot pile requests up.
      connectionTimeoutMillis: timeoutMs,
      // For queries on a checked-out connection (Prisma's transactions); query() below narrows it.
      query_timeout: timeoutMs,
      idleTimeoutMillis: 30_000,
      cancelWaitMs: Math.min(CANCEL_WAIT_MS, timeoutMs),
    };
    super(config);
    this.timeoutMs = timeoutMs;
    // Promise-form queries get the bounded path; callbacks and Submittables keep pg's own (wrapped per
    // instance, as in BoundedClient).
    this.query = ((...args: unknown[]) => {
      const [config, values, callback] = args;
      const promiseForm =
        typeof values !== "function" &&
        callback === undefined &&
        typeof (config as pg.Submittable)?.submit !== "function";
      if (!promiseForm) return (pg.Pool.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
      return this.queryWithinTimeout(config as string | pg.QueryConfig, values as unknown[] | undefined);
    }) as pg.Pool["query"];
  }

  // The statement gets what the wait for a connection left of the budget, so the two add up to timeoutMs,
  // not twice it. A connection whose query failed is discarded, as pg's own Pool.query does.
  //
  // pg's callback forms inside one promise rather than async/await on its promise forms: every keyed request runs a
  // query here, and each of those is a promise more per request (tests/integration/admission-allocations.test.ts
  // counts them), one here against eight.
  private queryWithinTimeout(config: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    const started = performance.now();
    return new Promise((resolve, reject) => {
      this.checkOut((connectError, client, release) => {
        if (connectError || !client) return reject(connectError);
        const left = Math.max(1, Math.floor(this.timeoutMs - (performance.now() - started)));
        const timed: TimedQueryConfig = {
          ...(typeof config === "string" ? { text: config } : config),
          ...(values && { values }),
          query_timeout: left,
        };
        const failed = (error: Error) => {
          release(error);
          reject(error);
        };
        try {
          client.query(timed, (error, result) => {
            if (!error) {
              release();
              resolve(result);
            } else if (isReadTimeout(error)) {
              void (client as unknown as BoundedClient).endAfterReadTimeout().then(() => failed(error));
            } else failed(error);
          });
        } catch (error) {
          failed(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
  }

  /**
   * A connection, as connect() gives one, with one deadline less when an idle one is there for this caller: pg-pool
   * then hands it over on the next tick, before any I/O or timer can run, so there is no wait to bound, yet it arms
   * its connection timer all the same (a timer per query; tests/integration/admission-allocations.test.ts counts
   * them). Every caller queued ahead has an idle connection too (idle > waiting), so none can take this one's. Any
   * other case (a wait, a new connection) keeps pg-pool's connection timeout.
   */
  private checkOut(callback: Parameters<pg.Pool["connect"]>[0] & {}): void {
    if (this.idleCount <= this.waitingCount) return this.connect(callback);
    const timeoutMs = this.options.connectionTimeoutMillis;
    this.options.connectionTimeoutMillis = 0;
    try {
      this.connect(callback);
    } finally {
      this.options.connectionTimeoutMillis = timeoutMs;
    }
  }
}
