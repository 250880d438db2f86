import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as english from "@zxcvbn-ts/language-en";

// What a new password must be (issue 36): at least PASSWORD_MIN_LENGTH characters, and not guessable by zxcvbn-ts
// (common passwords, English words and names, keyboard patterns, dates, repeats, and the person's own name,
// address and organization): its score, 0 to 4, must reach MIN_SCORE, "safely unguessable" against a slowed online
// attack. Sign-in itself never asks this: a password already set is checked only for being right.

const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;
const MIN_SCORE = 3;

let checker: ZxcvbnFactory | undefined;

function zxcvbn(): ZxcvbnFactory {
  checker ??= new ZxcvbnFactory({
    translations: english.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...english.dictionary },
  });
  return checker;
}

/** Why a password will not do, in a sentence to show beside the field; null when it will. */
export function passwordProblem(password: string, personal: string[] = []): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  const result = zxcvbn().check(password.slice(0, 256), personal.filter(Boolean));
  if (result.score >= MIN_SCORE) return null;
  const hint = result.feedback.warning ?? result.feedback.suggestions[0];
  return `This password is too easy to guess${hint ? `: ${hint.replace(/\.$/, "")}` : ""}. Add words or characters nobody would link to you.`;
}
