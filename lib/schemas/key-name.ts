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

// What shows nothing on its own, so that a name made only of it looks empty in the table, the dialogs and the
// CLI: spaces of every width, characters Unicode says to render invisibly (Default_Ignorable_Code_Point: the
// Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the combining grapheme joiner U+034F, variation selectors such as
// a lone U+FE0F, tags), marks with nothing to sit on, unassigned and private-use code points, and the two blanks
// drawn as symbols (U+2800 BRAILLE PATTERN BLANK, U+1D159 MUSICAL SYMBOL NULL NOTEHEAD). Within a name they may
// stay (é written with a combining accent, ❤️ with its variation selector); a name needs one character besides them.
const SHOWS_NOTHING = /[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{M}\p{C}\u2800\u{1D159}]/gu;

/** Whether `text` has at least one character that shows: one that is not blank, invisible or a lone mark. */
function hasVisibleCharacter(text: string): boolean {
  return text.replace(SHOWS_NOTHING, "").length > 0;
}

/** A name someone gives a thing ("key", "token", "organization"): the same rule and messages on every surface. */
function secretNameSchema(what: string, max = KEY_NAME_MAX) {
  return (
    z
      .string({ error: `Enter a name for the ${what}.` })
      .trim()
      // Each check stops the ones after it, so a name is refused for one reason, the first.
      .min(1, { error: `Enter a name for the ${what}.`, abort: true })
      .max(max, { error: `Use at most ${max} characters.`, abort: true })
      .refine((name) => !UNSAFE_IN_NAME.test(name.replace(EMOJI_ZWJ, "")), {
        message:
          "Use printable characters only: no control characters, text-direction overrides, invisible characters or line separators.",
        abort: true,
      })
      .refine(hasVisibleCharacter, {
        message:
          "Use at least one visible character: this name is made only of blank or invisible characters, so it would look empty.",
      })
  );
}

/** A key's name, the same rule and messages on every surface that creates one (settings form, CLI). */
export const keyNameSchema = secretNameSchema("key");

/** An ingest token's name, by the key name's rule (settings, CLI). */
export const ingestTokenNameSchema = secretNameSchema("token");

export const ORGANIZATION_NAME_MAX = 100;

/** An organization's name (Settings → Organization), by the same rule: every surface and page shows it. */
export const organizationNameSchema = secretNameSchema("organization", ORGANIZATION_NAME_MAX);
