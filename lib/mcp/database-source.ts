import type { VerifiedKey } from "@/lib/admission/verify-api-key";
import { isDeepStrictEqual } from "node:util";
import { answerForKey, finishPrepared, prepareAnswer, type PreparedAnswer } from "@/lib/operations/answers";
import { parseToolArguments } from "@/lib/operations/input";
import { findTool } from "./tools";
import type { SundownSource } from "./source";

/** A tool call's answer prepared from the message, and the data its read brought along with the key lookup. */
export interface Prefetched {
  answer: PreparedAnswer;
  data: unknown;
}

/**
 * The answer a tools/call message will need, prepared before the key is looked up, so its read travels with the
 * lookup in one round trip, as REST's does. Anything else (other methods, unknown tools, arguments the tool will
 * refuse) prepares nothing and is answered as usual.
 */
export function prepareToolCall(message: Record<string, unknown>): PreparedAnswer | undefined {
  if (message.method !== "tools/call") return undefined;
  const { name, arguments: args = {} } = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
  const tool = typeof name === "string" ? findTool(name) : undefined;
  if (!tool || args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
  try {
    return prepareAnswer(tool.operation.name, parseToolArguments(tool.operation, args as Record<string, unknown>));
  } catch {
    return undefined;
  }
}

/**
 * The remote server's data: the same answers and scope check as the REST routes, for one verified key. A call
 * that asks exactly what was prefetched is answered from the prefetched data, once; any other from the database.
 */
export function createDatabaseSource(key: VerifiedKey, prefetched?: Prefetched): SundownSource {
  let unused = prefetched;
  return {
    answer: (name, input) => {
      const hit = unused && unused.answer.name === name && isDeepStrictEqual(unused.answer.input, input);
      if (!hit) return answerForKey(key, name, input);
      const { answer, data } = unused!;
      unused = undefined;
      return finishPrepared(answer as PreparedAnswer<typeof name>, key, data);
    },
  };
}
