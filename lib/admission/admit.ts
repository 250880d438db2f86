import { hasScope } from "@/lib/auth/scopes";
import { finishPrepared, prepareAnswer, type PreparedAnswer } from "@/lib/operations/answers";
import { parseRestInput, parseToolArguments } from "@/lib/operations/input";
import { OPERATIONS, type KeyedOperationName, type OperationInput, type OperationOutput } from "@/lib/operations/table";
import type { StoreResult } from "@/lib/ratelimit/limiter";
import { keyLimiter } from "@/lib/ratelimit/policies";
import { knownKey, requireScope, verifyKeyHash, type VerifiedKey } from "./verify-api-key";

// Admission of a keyed call, REST and MCP alike, in the contract's order: key (401) → the key's rate limit (429) →
// scope (403) → parameters (400) → the read → existence (404). A key refusal is the request's and is thrown; the
// budget is reported, for the transport to write and enforce (a refused request is a used key too); from the scope
// on, refusals are the call's, returned for the transport to answer in its own way (REST as an HTTP error, MCP as a
// tool error). No transport here and no call back into one: the key comes in hashed, the call as data (its raw
// input, parsed here by the operations' parsers), and what a transport writes (headers, log fields, the key-use
// write) it writes from what admit returns (lib/http/admit-request.ts).
//
// Round trips. The parameters are parsed first (no I/O), so the operation's read can travel with the key lookup.
// A key this process has looked up before has a known id and scopes, so its budget is counted and its scope
// decided before the lookup: admitted, one statement (the key lookup carrying the read); refused, the key lookup
// alone, so a revoked or expired key still answers 401 before 429 and a 429 costs no read. A key this process has
// not seen (its first request on a fresh instance) gets its id, budget and scope from the lookup, so the read
// cannot travel with it and follows on its own: two round trips, once per key per instance.

/** A keyed operation a request calls, with its input as the request carried it: parsed here, no I/O. */
export type KeyedCall<N extends KeyedOperationName = KeyedOperationName> = { name: N } & (
  { query: URLSearchParams; path: Record<string, unknown> } | { arguments: Record<string, unknown> }
);

/**
 * What a request calls: a keyed call, or a refusal its transport already holds (an unreadable message), which waits
 * until the key and its budget have answered.
 */
export type RequestCall<N extends KeyedOperationName = KeyedOperationName> = KeyedCall<N> | { refused: unknown };

/** A call's output, or what refused it from the scope on (an ApiError, or a failure of ours) for its caller to throw. */
export type CallAnswer<N extends KeyedOperationName = KeyedOperationName> =
  { output: OperationOutput<N> } | { refused: unknown };

export interface Admission<N extends KeyedOperationName = KeyedOperationName> {
  key: VerifiedKey;
  /** The key's budget after this request; past it (`success` false) the request is refused with 429, unanswered. */
  budget: StoreResult;
  /** The call's answer; absent when the request called nothing or is past its budget. */
  answer?: CallAnswer<N>;
}

/** REST's query and path parameters or MCP's tool arguments, by the operations' parsers (throws its refusal). */
function inputOf<N extends KeyedOperationName>(call: KeyedCall<N>): OperationInput<N> {
  const operation = OPERATIONS[call.name];
  const input =
    "arguments" in call
      ? parseToolArguments(operation, call.arguments)
      : parseRestInput(operation, call.query, call.path);
  return input as OperationInput<N>;
}

/**
 * Admits the request whose key has this hash and answers its call. What the call's parsing throws (a bad
 * parameter), or the refusal it came with, is held until the key and its budget have answered, then returned as
 * the answer's refusal: the one place a refusal waits.
 */
export async function admit<N extends KeyedOperationName>(
  hashedKey: string,
  call?: RequestCall<N>,
): Promise<Admission<N>> {
  const named = call && "name" in call ? call : undefined;
  let prepared: PreparedAnswer<N> | undefined;
  let held: unknown = call && "refused" in call ? call.refused : undefined;
  try {
    prepared = named && prepareAnswer(named.name, inputOf(named));
  } catch (error) {
    held = error;
  }
  const scope = named && OPERATIONS[named.name].scope;
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
  if (!call || !budget.success) return { key, budget };
  granted ??= hasScope(key.scopes, scope);

  try {
    if (!granted) requireScope(key, scope);
    if (!prepared) throw held;
    // A first-seen key's read follows the lookup; if it fails (the database down), the key and budget are still
    // reported, so the transport counts the failure against the key.
    const data = read && !carried ? await read.fetchJson(key.organization.id) : lookup.data;
    return { key, budget, answer: { output: finishPrepared(prepared, key, data) } };
  } catch (refused) {
    return { key, budget, answer: { refused } };
  }
}
