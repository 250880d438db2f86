import { ANSWERS, type Answer } from "@/lib/operations/answers";
import { parseRestInput } from "@/lib/operations/input";
import { OPERATIONS, type KeyedOperationName, type OperationInput } from "@/lib/operations/table";
import { admitKey } from "./admit-key";
import { jsonResponse } from "./responses";
import { withRequest } from "./with-request";

/**
 * The GET handler of a keyed operation of the table (lib/operations/table.ts). The checks keep the contract's
 * order, key → rate limit → scope → parameters → existence, so a key without the scope learns nothing about
 * what exists; yet the parameters are parsed first (no I/O), so the operation's read can travel with the key
 * lookup in one database round trip (lib/http/admit-key.ts).
 */
export function operationRoute<N extends KeyedOperationName>(name: N) {
  const operation = OPERATIONS[name];
  const answer = ANSWERS[name] as Answer<N>;
  return withRequest(async (request, context) => {
    let input: OperationInput<N> | undefined;
    let invalidInput: unknown;
    try {
      input = parseRestInput(operation, context.url.searchParams, context.params) as OperationInput<N>;
    } catch (error) {
      invalidInput = error;
    }
    const read = input && "read" in answer ? answer.read(input) : undefined;
    const { key, data } = await admitKey(request, context, { scope: operation.scope, read });
    if (invalidInput) throw invalidInput;
    const body = read ? read.toBody(data) : "fromKey" in answer ? answer.fromKey(key) : undefined;
    // The output schema parses every body: a second whitelist on what leaves the service.
    return jsonResponse(request, operation.output.parse(body), { cache: "private", headers: context.responseHeaders });
  });
}
