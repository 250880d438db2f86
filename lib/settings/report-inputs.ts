import { z } from "zod";
import { uuid } from "@/lib/schemas/common";
import { reportScopeSchema } from "@/lib/schemas/reports";
import { singleField } from "./form-fields";
import { UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE } from "./upload-limit";

// Settings → Reports' forms and its list's filters, as the server reads them. An import file's own rules are the
// import's (lib/data/import-reports.ts), the same as `sundown reports import`'s.

const reportId = uuid.transform((id) => id.toLowerCase());

export const deleteReportInput = z.object({ reportId });

/** A checkbox: "on" when ticked, absent when not. */
const checkbox = z
  .literal("on")
  .optional()
  .transform((value) => value === "on");

const previewInput = z.object({
  intent: z.literal("preview"),
  file: z
    .instanceof(File, { error: "Choose an import file (JSON) to preview." })
    .refine((file) => file.size > 0, "Choose an import file (JSON) to preview: this one is empty.")
    .refine((file) => file.size <= UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE),
  replace: checkbox,
});

/** The previewed file, sent back as the preview returned it. */
const importInput = z.object({
  intent: z.literal("import"),
  // A form post writes every line break as CRLF (the HTML form encoding): read back as the file had them.
  content: z
    .string()
    .transform((text) => text.replaceAll("\r\n", "\n"))
    .pipe(
      z.string().min(1, "Preview the file again: nothing was sent to import.").max(UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE),
    ),
  replace: z.enum(["true", "false"]).transform((value) => value === "true"),
  fileName: z.string().max(255),
});

/** The upload's two steps, told apart by the button that sent the form. */
export const uploadInput = z.discriminatedUnion("intent", [previewInput, importInput], {
  error: "Choose an import file (JSON) to preview.",
});

/** The fields of whichever step was sent; a form without `intent` is a preview's (a press of Enter). */
export function uploadFields(formData: FormData) {
  const intent = singleField(formData, "intent") ?? "preview";
  return intent === "import"
    ? {
        intent,
        content: singleField(formData, "content"),
        replace: singleField(formData, "replace"),
        fileName: singleField(formData, "fileName"),
      }
    : { intent, file: singleField(formData, "file"), replace: singleField(formData, "replace") };
}

/** The list's filters from the page's query: a value that does not parse is left out (and said so on the page). */
export const reportFiltersInput = z.object({
  day: z.iso.date().optional().catch(undefined),
  scope: reportScopeSchema.optional().catch(undefined),
  person: reportId.optional().catch(undefined),
  /** The previous page's last report, `<generated_at>_<id>`, after which this page starts. */
  after: z
    .string()
    .transform((value, ctx) => {
      const [generatedAt, id] = value.split("_");
      const parsed = z.object({ generatedAt: z.iso.datetime(), id: reportId }).safeParse({ generatedAt, id });
      if (!parsed.success) {
        ctx.addIssue({ code: "custom", message: "not a page" });
        return z.NEVER;
      }
      return parsed.data;
    })
    .optional()
    .catch(undefined),
});

export type ReportListFilters = z.infer<typeof reportFiltersInput>;
