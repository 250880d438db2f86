import { Webhook } from "standardwebhooks";
import { openSecret, openSecretIfAble, UnsealError } from "@/lib/auth/webhook-secret";
import { disableWebhookEndpointByDelivery } from "@/lib/data/webhook-endpoints";
import type { DisabledReason } from "@/lib/data/webhook-endpoint-state";
import { pruneWebhookHistory } from "@/lib/data/webhook-retention";
import { getDb } from "@/lib/db";
import { getEnv, publicUrl } from "@/lib/env";
import { log } from "@/lib/log";
import { renderBody } from "./body";
import { WEBHOOK_USER_AGENT } from "@/lib/schemas/webhook-events";
import { relayOutbox } from "./relay";
import { resolveWebhookTarget, WebhookTargetError } from "./resolve-target";
import {
  ATTEMPT_TIMEOUT_MS,
  FAILING_DISABLES_AFTER_MS,
  MAX_ATTEMPTS,
  nextAttemptAt,
  RETRY_DELAYS_MS,
} from "./schedule";
import { postWebhook, type SendResult } from "./send";

// Attempts the deliveries that are due, from whichever instance asks: the in-process loop under `next start`
// (lib/webhooks/loop.ts), the request that queued them (after()), or the cron route on a serverless platform.
//
// A delivery is leased before it is attempted: one statement takes due rows with FOR UPDATE SKIP LOCKED and sets
// lease_until, so no other instance takes them while the attempt runs, and no row lock is held across the HTTP
// request (which a transaction-mode pooler could not keep on one connection anyway). An instance killed mid-attempt
// leaves a lease that runs out: another instance attempts the delivery again (at least once), after the back-off
// the lease set. Each outcome is recorded by one statement; only turning an endpoint off takes a transaction.

/**
 * Longer than an attempt takes (ATTEMPT_TIMEOUT_MS, after a DNS lookup), so a live attempt keeps its lease; short
 * enough that what a crashed instance held is attempted again within half a minute.
 */
const LEASE_MS = 2 * ATTEMPT_TIMEOUT_MS + 5_000;

/**
 * The largest body sent. A report's summary is well under it; a headline pasted with a whole document is not, and
 * is not sent (the receiver can read the report at its URL) rather than pushed at every receiver's body limit.
 */
const MAX_BODY_BYTES = 64 * 1024;

/** Deliveries one pass takes at a time, attempted concurrently. */
const PASS_SIZE = 32;

/**
 * Deliveries of one organization in flight at once, across every instance: an organization with a backlog takes
 * at most these from a pass, and the rest of the pass goes to the others.
 */
export const IN_FLIGHT_PER_ORGANIZATION = 16;

/** Why a delivery is given up when the outcome of its attempts could not be recorded (the deliveries view says it). */
export const UNRECORDED_GIVEN_UP = `given up: the outcome of this attempt could not be recorded, and it was the last of ${MAX_ATTEMPTS}`;

export interface PassResult {
  attempted: number;
  delivered: number;
}

interface LeasedDelivery {
  id: string;
  attempts: number;
  message_id: string;
  organization_id: string;
  type: string;
  data: unknown;
  created_at: Date;
  endpoint_id: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
}

/** How often an instance prunes webhook history older than its retention (lib/data/webhook-retention.ts). */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
let lastPrunedAt = -Infinity;

/** Expands what the outbox holds, gives up what could not be recorded, then leases and attempts what is due. */
export async function deliverDue(limit = PASS_SIZE): Promise<PassResult> {
  if (Date.now() - lastPrunedAt >= PRUNE_EVERY_MS) {
    lastPrunedAt = Date.now();
    await pruneWebhookHistory();
  }
  await relayOutbox();
  await giveUpUnrecorded();
  const leased = await lease(limit);
  const outcomes = await Promise.all(leased.map(attemptAndRecord));
  return { attempted: outcomes.length, delivered: outcomes.filter(Boolean).length };
}

/**
 * Takes up to `limit` due deliveries, round-robin across organizations: each organization's oldest first, its
 * first before anyone's second, and no more than IN_FLIGHT_PER_ORGANIZATION of one organization leased at once.
 * So one organization's backlog delays another's next delivery by one pass at most.
 *
 * The lease counts the attempt and moves the due time to where a failure would put it, before anything is sent:
 * when the outcome cannot be recorded, the delivery comes back after its back-off, never sooner, and never past
 * MAX_ATTEMPTS (giveUpUnrecorded). A lease cleared by a recorded outcome (or a redelivery) may always be taken.
 */
async function lease(limit: number): Promise<LeasedDelivery[]> {
  const db = await getDb();
  return db.$queryRaw<LeasedDelivery[]>`
    WITH due AS (
      SELECT pick.id, pick.next_attempt_at,
             row_number() OVER (PARTITION BY o.id ORDER BY pick.next_attempt_at, pick.id) AS turn, busy.n AS busy
      FROM organizations o
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS n FROM webhook_deliveries f
        WHERE f.organization_id = o.id AND f.state = 'pending' AND f.lease_until > now()
      ) busy
      CROSS JOIN LATERAL (
        SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
        WHERE d.organization_id = o.id AND d.state = 'pending' AND d.next_attempt_at <= now()
          AND (d.lease_until IS NULL OR (d.lease_until < now() AND d.attempts < ${MAX_ATTEMPTS}::int))
        ORDER BY d.next_attempt_at
        LIMIT ${IN_FLIGHT_PER_ORGANIZATION}::int
        FOR UPDATE OF d SKIP LOCKED
      ) pick
      WHERE busy.n < ${IN_FLIGHT_PER_ORGANIZATION}::int
    ), chosen AS (
      SELECT id FROM due WHERE turn <= ${IN_FLIGHT_PER_ORGANIZATION}::int - busy
      ORDER BY turn, next_attempt_at, id
      LIMIT ${limit}::int
    ), leased AS (
      UPDATE webhook_deliveries d
      SET lease_until = now() + ${LEASE_MS}::int * interval '1 millisecond',
          attempts = d.attempts + 1,
          next_attempt_at = now() + coalesce((${[...RETRY_DELAYS_MS]}::int[])[d.attempts + 1], ${LEASE_MS}::int)
                                   * interval '1 millisecond'
      FROM chosen
      WHERE d.id = chosen.id
      RETURNING d.id, d.attempts, d.message_id, d.endpoint_id
    )
    SELECT l.id, l.attempts, m.id AS message_id, m.organization_id, m.type, m.data, m.created_at,
           e.id AS endpoint_id, e.url, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at
    FROM leased l
    JOIN webhook_messages m ON m.id = l.message_id
    JOIN webhook_endpoints e ON e.id = l.endpoint_id`;
}

/**
 * Gives up, visibly, the deliveries whose last allowed attempt was made but never recorded (its lease ran out with
 * the delivery still pending): a line in the deliveries view says so, and nothing is sent again.
 */
async function giveUpUnrecorded() {
  const db = await getDb();
  await db.$executeRaw`
    WITH stuck AS (
      UPDATE webhook_deliveries
      SET state = 'failed', next_attempt_at = NULL, lease_until = NULL
      WHERE state = 'pending' AND lease_until < now() AND attempts >= ${MAX_ATTEMPTS}::int
      RETURNING id, endpoint_id, attempts
    )
    INSERT INTO webhook_attempts (delivery_id, endpoint_id, attempt, duration_ms, error)
    SELECT id, endpoint_id, attempts, 0, ${UNRECORDED_GIVEN_UP} FROM stuck`;
}

async function attemptAndRecord(delivery: LeasedDelivery): Promise<boolean> {
  const attemptedAt = new Date();
  const result = await attempt(delivery, attemptedAt);
  try {
    await recordOutcome(delivery, attemptedAt, result);
  } catch (error) {
    // The endpoint was deleted meanwhile (its deliveries with it), or the database is away: the lease already holds
    // the back-off, and the cap (giveUpUnrecorded).
    log("warn", "could not record a webhook attempt", { delivery: delivery.id, error: (error as Error).message });
  }
  return result.error === null;
}

/** One attempt: signed, to the address checked now (again), never to one a later DNS answer names. */
async function attempt(delivery: LeasedDelivery, at: Date): Promise<SendResult & { final?: boolean }> {
  const env = getEnv();
  try {
    const url = new URL(delivery.url);
    const body = renderBody(
      {
        id: delivery.message_id,
        organizationId: delivery.organization_id,
        type: delivery.type,
        data: delivery.data,
        createdAt: delivery.created_at,
      },
      publicUrl(env),
    );
    const size = Buffer.byteLength(body);
    if (size > MAX_BODY_BYTES)
      return {
        statusCode: null,
        durationMs: 0,
        error: `the event's body is ${Math.ceil(size / 1024)} KB, over the ${MAX_BODY_BYTES / 1024} KB limit: not sent; read it at its URL`,
        responseBody: null,
        final: true,
      };
    const headers = signedHeaders(delivery, at, body);
    const target = await resolveWebhookTarget(url, env.SUNDOWN_WEBHOOK_ALLOW_HOSTS);
    return await postWebhook({ url, ...target, headers, body });
  } catch (error) {
    if (!(error instanceof UnsealError || error instanceof WebhookTargetError)) throw error;
    return { statusCode: null, durationMs: 0, error: error.message, responseBody: null };
  }
}

/** The Standard Webhooks headers: one signature per secret in use (two during a roll's overlap). */
function signedHeaders(delivery: LeasedDelivery, at: Date, body: string): Record<string, string> {
  const sealed = [delivery.secret_sealed];
  if (
    delivery.previous_secret_sealed &&
    delivery.previous_secret_expires_at &&
    delivery.previous_secret_expires_at > at
  )
    sealed.push(delivery.previous_secret_sealed);
  const signatures = sealed.map((s, i) => {
    // The current secret must open; an old one that does not (rolled after the server secret changed, before the
    // roll refused that) is left out rather than failing the delivery the new one signs.
    const secret = i === 0 ? openSecret(s) : openSecretIfAble(s);
    return secret === undefined ? undefined : new Webhook(secret).sign(delivery.message_id, at, body);
  });
  return {
    "Content-Type": "application/json",
    "User-Agent": WEBHOOK_USER_AGENT,
    "webhook-id": delivery.message_id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signatures.filter((s) => s !== undefined).join(" "),
  };
}

/**
 * The attempt's line, the delivery's next state, and the endpoint's failure clock (set by a failure, cleared by a
 * delivery, written only when it changes), in one statement. Then, rarely, the endpoint turned off: on 410 Gone,
 * or when it has failed for FAILING_DISABLES_AFTER_MS.
 */
async function recordOutcome(delivery: LeasedDelivery, attemptedAt: Date, result: SendResult & { final?: boolean }) {
  const delivered = result.error === null;
  const gone = result.statusCode === 410;
  // A body over the limit stays over it: no retry, and no mark against the endpoint.
  if (result.final) return recordGivenUp(delivery, attemptedAt, result);
  const next = delivered || gone ? null : nextAttemptAt(delivery.attempts, attemptedAt);
  const state = delivered ? "delivered" : next ? "pending" : "failed";
  let endpoint: { failing_since: Date; disabled_at: Date | null } | undefined;
  try {
    endpoint = await writeOutcome(delivery, attemptedAt, result, state, next);
  } catch (error) {
    // What the receiver answered may be what the database refused: the attempt is recorded without it, saying so.
    if (result.responseBody === null) throw error;
    log("warn", "could not store a webhook answer", { delivery: delivery.id, error: (error as Error).message });
    const unstored = "its answer could not be stored";
    endpoint = await writeOutcome(
      delivery,
      attemptedAt,
      { ...result, responseBody: null, error: result.error ? `${result.error} (${unstored})` : null },
      state,
      next,
    );
  }
  if (delivered || !endpoint || endpoint.disabled_at) return;
  const failingFor = attemptedAt.getTime() - endpoint.failing_since.getTime();
  const reason: DisabledReason | null = gone ? "gone" : failingFor >= FAILING_DISABLES_AFTER_MS ? "failing" : null;
  if (reason) await disableWebhookEndpointByDelivery(delivery.endpoint_id, reason, attemptedAt);
}

async function writeOutcome(
  delivery: LeasedDelivery,
  attemptedAt: Date,
  result: SendResult,
  state: "delivered" | "pending" | "failed",
  next: Date | null,
) {
  const delivered = result.error === null;
  const db = await getDb();
  const [endpoint] = await db.$queryRaw<{ failing_since: Date; disabled_at: Date | null }[]>`
    WITH attempt AS (
      INSERT INTO webhook_attempts
        (delivery_id, endpoint_id, attempt, attempted_at, status_code, duration_ms, error, response_body)
      VALUES (${delivery.id}::uuid, ${delivery.endpoint_id}::uuid, ${delivery.attempts}::int, ${attemptedAt}::timestamptz,
              ${result.statusCode}::int, ${result.durationMs}::int, ${result.error}, ${result.responseBody})
    ), delivery AS (
      UPDATE webhook_deliveries
      SET state = ${state}::webhook_delivery_state, next_attempt_at = ${next}::timestamptz, lease_until = NULL
      WHERE id = ${delivery.id}::uuid
    ), health AS (
      UPDATE webhook_endpoints
      SET failing_since = CASE WHEN ${delivered}::boolean THEN NULL ELSE ${attemptedAt}::timestamptz END
      WHERE id = ${delivery.endpoint_id}::uuid AND (failing_since IS NULL) = NOT ${delivered}::boolean
    )
    SELECT coalesce(failing_since, ${attemptedAt}::timestamptz) AS failing_since, disabled_at
    FROM webhook_endpoints WHERE id = ${delivery.endpoint_id}::uuid`;
  return endpoint;
}

async function recordGivenUp(delivery: LeasedDelivery, attemptedAt: Date, result: SendResult) {
  const db = await getDb();
  await db.$executeRaw`
    WITH attempt AS (
      INSERT INTO webhook_attempts (delivery_id, endpoint_id, attempt, attempted_at, duration_ms, error)
      VALUES (${delivery.id}::uuid, ${delivery.endpoint_id}::uuid, ${delivery.attempts}::int,
              ${attemptedAt}::timestamptz, 0, ${result.error})
    )
    UPDATE webhook_deliveries SET state = 'failed', next_attempt_at = NULL, lease_until = NULL
    WHERE id = ${delivery.id}::uuid`;
}
