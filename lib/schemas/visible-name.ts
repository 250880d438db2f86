import { z } from "zod";

// Names people give things (keys, tokens, organizations, people) reach operators' terminals (`sundown keys list`,
// `sundown orgs list`) and pages: nothing in them may move the cursor, set a window title (ESC/OSC), reorder the
// text around it (bidi overrides and isolates) or break a line, and nothing invisible may make two names look
// alike: no format characters (Unicode category Cf: soft hyphen, zero-width spaces and joiners, marks such as
// U+061C and U+200E/F, BOM). The one exception is ZWJ (U+200D) inside an emoji sequence such as 👩‍💻, which is
// built with it and shows as one picture.
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

/**
 * A name that must show: trimmed, 1 to `max` UTF-16 code units (what a browser's `maxLength` counts), printable,
 * with at least one visible character. `what` completes "Enter a name for …" / "Enter …".
 */
export function visibleNameSchema(empty: string, max: number) {
  return (
    z
      .string({ error: empty })
      .trim()
      // Each check stops the ones after it, so a name is refused for one reason, the first.
      .min(1, { error: empty, abort: true })
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

/** Longest organization name, in UTF-16 code units (what a browser's `maxLength` counts). */
export const ORGANIZATION_NAME_MAX = 100;

/** An organization's display name (CLI `orgs create`, /setup, Settings → Organization). */
export const organizationNameSchema = visibleNameSchema("Enter the organization's name.", ORGANIZATION_NAME_MAX);

/** A person's name on the roster (a founder created with their organization, someone completing an invitation). */
export const personNameSchema = visibleNameSchema("Enter the person's name.", 100);
