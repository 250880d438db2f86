import { z } from "zod";
import { uuid } from "@/lib/schemas/common";
import { reportScopeSchema } from "@/lib/schemas/reports";
import { singleField } from "./form-fields";

// Settings → Reports' forms and its list's filters, as the server reads them. An import file's own rules are the
// import's (lib/data/import-reports.ts), the same as `sundown reports import`'s.

const reportId = uuid.transform((id) => id.toLowerCase());

export const deleteReportInput = z.object({ reportId });

/** A checkbox: "on" when ticked, absent when not. */
const checkbox = z
  .literal("on")
  .optional()
  .transform((value) => value === "on");

/** Server actions take up to 1 MB (Next's bodySizeLimit); a larger file goes through the CLI or the ingest endpoint. */
const UPLOAD_MAX_BYTES = 1_000_000;

const UPLOAD_TOO_LARGE =
  "The file is larger than this page takes (1 MB): import it with `sundown reports import`, or send it to POST /ingest/v1/reports.";

export const previewUploadInput = z.object({
  file: z
    .instanceof(File, { error: "Choose an import file (JSON) to preview." })
    .refine((file) => file.size > 0, "Choose an import file (JSON) to preview: this one is empty.")
    .refine((file) => file.size <= UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE),
  replace: checkbox,
});

/** The confirmed file, sent back as the preview returned it. */
export const confirmUploadInput = z.object({
  content: z
    .string()
    .min(1, "Preview the file again: nothing was sent to import.")
    .max(UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE),
  replace: z.enum(["true", "false"]).transform((value) => value === "true"),
});

export function uploadFields(formData: FormData) {
  return { file: singleField(formData, "file"), replace: singleField(formData, "replace") };
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
