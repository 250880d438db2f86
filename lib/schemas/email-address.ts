import { z } from "zod";

/** An e-mail address as Sundown stores it: trimmed and lower-cased (sign-in looks addresses up that way). */
export const emailAddressSchema = z
  .string({ error: "Enter an e-mail address." })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "Enter an e-mail address, e.g. maya@example.com." }).max(254));
