import { z } from "zod";
import { UUID_SHAPE } from "./common";

// A slug names an organization on the command line (`--org acme`) and in lists: lower-case letters, digits and
// single hyphens, never a UUID (`--org` takes an id too, and an id-shaped slug would be ambiguous).
export const organizationSlugSchema = z
  .string({ error: "Enter a slug, e.g. acme." })
  .trim()
  .min(2, { error: "Use at least 2 characters.", abort: true })
  .max(40, { error: "Use at most 40 characters.", abort: true })
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, {
    error: "Use lower-case letters, digits and single hyphens between them, e.g. acme or acme-labs.",
    abort: true,
  })
  .refine((slug) => !UUID_SHAPE.test(slug), { message: "A slug cannot look like an id (a UUID)." });
