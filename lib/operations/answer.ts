import type { VerifiedKey } from "@/lib/admission/verify-api-key";
import type { ReadRequest } from "@/lib/data/organization-read";
import type { KeyedOperationName, OperationInput, OperationOutput } from "./table";

// How a keyed operation is answered on the server, for REST and MCP alike. Each operation's answer sits beside its
// module (lib/operations/<operation>.answer.ts) rather than in it: the definitions are read by the stdio package, a
// client of the REST API, which must not carry the server's database code. lib/operations/answers.ts lists them.

/** Answered from the verified key alone. */
interface FromKey<Out> {
  fromKey(key: VerifiedKey): Out;
}

/** Answered by one read of the key's organization, which REST sends inside the key lookup, finished once the key is known. */
export interface FromRead<Input = unknown, Out = unknown, Result = unknown> {
  read(input: Input): ReadRequest<Result>;
  /** The read's result as the operation's output, for this key (omitted: the result is the output). */
  finish?(result: Result, input: Input, key: VerifiedKey): Out;
}

/** How the keyed operation `N` is answered: checked against its parameters and output. */
export type Answer<N extends KeyedOperationName> =
  FromKey<OperationOutput<N>> | FromRead<OperationInput<N>, OperationOutput<N>>;

/** Any operation's answer, as lib/operations/answers.ts runs it once the operation's name has chosen it. */
export type AnyAnswer = FromKey<unknown> | FromRead;
