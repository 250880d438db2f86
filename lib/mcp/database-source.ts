import type { VerifiedKey } from "@/lib/admission/verify-api-key";
import type { CallAnswer, KeyedCall } from "@/lib/admission/admit";
import { answerForKey } from "@/lib/operations/answers";
import type { KeyedOperationName } from "@/lib/operations/table";
import { findTool } from "./tools";
import type { SundownSource } from "./source";

/**
 * The call a tools/call message makes, for admission to answer with the request (lib/admission/admit.ts), so that
 * its read travels with the key lookup in one round trip, as REST's does. Other methods and unknown tools call
 * nothing there and are answered as usual.
 */
export function toolCallOf(message: Record<string, unknown>): KeyedCall | undefined {
  if (message.method !== "tools/call") return undefined;
  const { name, arguments: args = {} } = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
  const tool = typeof name === "string" ? findTool(name) : undefined;
  // Arguments that are not an object are the SDK's to refuse (-32602), before any tool runs.
  if (!tool || args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
  return { name: tool.operation.name, arguments: args as Record<string, unknown> };
}

/** What admission answered for the request's tool call. */
export interface AdmittedCall {
  name: KeyedOperationName;
  answer: CallAnswer;
}

/**
 * The remote server's data for one verified key: the request's own tool call as admission answered it, once;
 * anything else (resources, prompts) from the database, with the same answers and scope check as REST.
 */
export function createDatabaseSource(key: VerifiedKey, admitted?: AdmittedCall): SundownSource {
  let unused = admitted;
  return {
    answer: (name, input) => answerForKey(key, name, input),
    timeZone: () => Promise.resolve(key.timeZone),
    admittedAnswer: (name) => {
      if (unused?.name !== name) return undefined;
      const { answer } = unused;
      unused = undefined;
      return "output" in answer ? Promise.resolve(answer.output as never) : Promise.reject(answer.refused);
    },
  };
}
