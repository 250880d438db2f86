import { z } from "zod";
import { isScope, SCOPES, type Scope } from "@/lib/auth/scopes";

const VALID_SCOPES = SCOPES.join(", ");
const NO_SCOPE = `Choose at least one scope: ${VALID_SCOPES}.`;
const SHOWN_UNKNOWN = 3;

/** How an unknown scope reads in a message: quoted, escaped and cut short, since it is echoed to a page or terminal. */
function quote(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/**
 * The scopes a new key gets, the same rule and messages on every surface that creates one (the settings
 * form's checkboxes, the CLI's comma-separated --scopes): each given once or more, blanks ignored, at least
 * one. The result lists each scope once, in SCOPES order, whatever order they came in.
 */
export const keyScopesSchema = z
  .array(z.string({ error: `Choose scopes from: ${VALID_SCOPES}.` }), { error: NO_SCOPE })
  .transform((values, ctx): Scope[] => {
    const given = new Set(values.map((value) => value.trim()).filter(Boolean));
    const unknown = [...given].filter((value) => !isScope(value));
    if (unknown.length > 0) {
      const shown =
        unknown.slice(0, SHOWN_UNKNOWN).map(quote).join(", ") + (unknown.length > SHOWN_UNKNOWN ? ", …" : "");
      ctx.addIssue({ code: "custom", message: `Unknown scope ${shown}; valid scopes are ${VALID_SCOPES}.` });
      return z.NEVER;
    }
    if (given.size === 0) {
      ctx.addIssue({ code: "custom", message: NO_SCOPE });
      return z.NEVER;
    }
    return SCOPES.filter((scope) => given.has(scope));
  });
