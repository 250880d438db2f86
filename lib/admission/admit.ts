import { hasScope } from "@/lib/auth/scopes";
import { ApiError, ERROR_MESSAGES } from "@/lib/errors";
import { finishPrepared, prepareAnswer, type PreparedAnswer } from "@/lib/operations/answers";
import { OPERATIONS, type KeyedOperationName, type OperationInput, type OperationOutput } from "@/lib/operations/table";
import type { StoreResult } from "@/lib/ratelimit/limiter";
import { keyLimiter } from "@/lib/ratelimit/policies";
import { knownKey, requireScope, verifyKeyHash, type VerifiedKey } from "./verify-api-key";

// Admission of a keyed call, REST and MCP alike, in the contract's order: key (401) → the key's rate limit (429) →
// scope (403) → parameters (400) → the read → existence (404). Key and limit refusals are the request's and are
// thrown; from the scope on they are the call's, returned for the transport to answer in its own way (REST as an
// HTTP error, MCP as a tool error). No transport here: the key comes in hashed, and what a transport writes
// (headers, log fields, the key-use write) it writes from what admit reports (lib/http/admit-request.ts).
//
// Round trips. The parameters are parsed first (no I/O), so the operation's read can travel with the key lookup.
// A key this process has looked up before has a known id and scopes, so its budget is counted and its scope
// decided before the lookup: admitted, one statement (the key lookup carrying the read); refused, the key lookup
// alone, so a revoked or expired key still answers 401 before 429 and a 429 costs no read. A key this process has
// not seen (its first request on a fresh instance) gets its id, budget and scope from the lookup, so the read
// cannot travel with it and follows on its own: two round trips, once per key per instance.

/** A keyed operation called by a request: its name, and how to parse its input (no I/O; throws its refusal). */
export interface KeyedCall<N extends KeyedOperationName = KeyedOperationName> {
  name: N;
  input: () => OperationInput<N>;
}

/** A call's output, or what refused it from the scope on (an ApiError, or a failure of ours) for its caller to throw. */
export type CallAnswer<N extends KeyedOperationName = KeyedOperationName> =
  { output: OperationOutput<N> } | { refused: unknown };

export interface Admission<N extends KeyedOperationName = KeyedOperationName> {
  key: VerifiedKey;
  /** The key's budget after this request (within it: a request past it is refused with 429). */
  budget: StoreResult;
  /** The call's answer; absent when the request called nothing and nothing refused it. */
  answer?: CallAnswer<N>;
}

/**
 * Admits the request whose key has this hash and answers its call. `callOf` reads what the request calls (no
 * I/O); whatever it or the input's parsing throws (an unreadable message, a bad parameter) is held until the key
 * and its budget have answered, then returned as the answer's refusal: the one place a refusal waits. `verified`
 * hears of the working key and its budget before the limit is enforced (a refused request is a used key too).
 */
export async function admit<N extends KeyedOperationName>(
  hashedKey: string,
  callOf: (() => KeyedCall<N> | undefined) | undefined,
  verified: (key: VerifiedKey, budget: StoreResult) => void,
): Promise<Admission<N>> {
  let call: KeyedCall<N> | undefined;
  let prepared: PreparedAnswer<N> | undefined;
  let held: unknown;
  try {
    call = callOf?.();
    prepared = call && prepareAnswer(call.name, call.input());
  } catch (error) {
    held = error;
  }
  const scope = call && OPERATIONS[call.name].scope;
  const read = prepared?.read;
  const now = new Date();

  // A key's id and scopes never change: known before the lookup, they decide whether the read travels with it.
  const known = knownKey(hashedKey);
  let budget = known && (await keyLimiter().limit(known.id));
  let granted = known && hasScope(known.scopes, scope);
  const carried = budget?.success && granted ? read : undefined;
  const lookup = await verifyKeyHash(hashedKey, { read: carried, now });
  const { key } = lookup;
  budget ??= await keyLimiter().limit(key.id);
  granted ??= hasScope(key.scopes, scope);
  verified(key, budget);
  if (!budget.success) throw new ApiError("rate_limited", ERROR_MESSAGES.keyRateLimited);
  const data = read && granted && !carried ? await read.fetchJson(key.organization.id) : lookup.data;

  if (!call && held === undefined) return { key, budget };
  try {
    if (!granted) requireScope(key, scope);
    if (!prepared) throw held;
    return { key, budget, answer: { output: finishPrepared(prepared, key, data) } };
  } catch (refused) {
    return { key, budget, answer: { refused } };
  }
}
