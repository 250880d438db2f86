import { z } from "zod";

/** Longest key name, in UTF-16 code units (what a browser's `maxLength` counts). */
export const KEY_NAME_MAX = 64;

// Key names reach operators' terminals (`sundown keys list`) and pages: nothing in them may move the cursor,
// set a window title (ESC/OSC), reorder the text around it (bidi overrides and isolates) or break a line.
// ZWJ (U+200D, a format character) stays allowed: emoji sequences such as 👩‍💻 are built with it.
const UNSAFE_IN_NAME = /[\p{Cc}\u202A-\u202E\u2066-\u2069\u2028\u2029]/u;

/** A key's name, the same rule and messages on every surface that creates one (settings form, CLI). */
export const keyNameSchema = z
  .string({ error: "Enter a name for the key." })
  .trim()
  .min(1, "Enter a name for the key.")
  .max(KEY_NAME_MAX, `Use at most ${KEY_NAME_MAX} characters.`)
  .refine((name) => !UNSAFE_IN_NAME.test(name), {
    message: "Use printable characters only: no control characters, text-direction overrides or line separators.",
  });
