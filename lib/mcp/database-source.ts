import type { VerifiedKey } from "@/lib/auth/verify-api-key";
import { answerForKey } from "@/lib/operations/answers";
import type { SundownSource } from "./source";

/** The remote server's data: the same answers and scope check as the REST routes, for one verified key. */
export function createDatabaseSource(key: VerifiedKey): SundownSource {
  return { answer: (name, input) => answerForKey(key, name, input) };
}
