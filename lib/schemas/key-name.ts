import { z } from "zod";

/** Longest key name, in UTF-16 code units (what a browser's `maxLength` counts). */
export const KEY_NAME_MAX = 64;

// Key and token names reach operators' terminals (`sundown keys list`) and pages: nothing in them may move the cursor,
// set a window title (ESC/OSC), reorder the text around it (bidi overrides and isolates) or break a line, and
// nothing invisible may make two names look alike: no format characters (Unicode category Cf: soft hyphen,
// zero-width spaces and joiners, marks such as U+061C and U+200E/F, BOM). The one exception is ZWJ (U+200D)
// inside an emoji sequence such as 👩‍💻, which is built with it and shows as one picture.
const UNSAFE_IN_NAME = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
const EMOJI_ZWJ = /(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu;

/** A name for a secret someone creates ("key", "token"): the same rule and messages on every surface. */
function secretNameSchema(what: string) {
  return z
    .string({ error: `Enter a name for the ${what}.` })
    .trim()
    .min(1, `Enter a name for the ${what}.`)
    .max(KEY_NAME_MAX, `Use at most ${KEY_NAME_MAX} characters.`)
    .refine((name) => !UNSAFE_IN_NAME.test(name.replace(EMOJI_ZWJ, "")), {
      message:
        "Use printable characters only: no control characters, text-direction overrides, invisible characters or line separators.",
    });
}

/** A key's name, the same rule and messages on every surface that creates one (settings form, CLI). */
export const keyNameSchema = secretNameSchema("key");

/** An ingest token's name, by the key name's rule (settings, CLI). */
export const ingestTokenNameSchema = secretNameSchema("token");
