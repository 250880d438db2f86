import { z } from "zod";
import { daySchema, updateContentSchema } from "@/lib/data/updates";
import { singleField } from "./form-fields";

// The "Your day" form as the server reads it. Each section is a list of rows (repeated fields, parallel for a
// slipping item's reason and due date and a KPI's value); a row left blank is no item. Each of the previous
// update's blockers and slipping items has a pair of radio buttons, `carryBlocker-<n>` / `carrySlipping-<n>`:
// "open" copies it into today's update, "resolved" (or no choice) does not.

/** The fields a refusal can name, in the form's order. */
export const DAY_FORM_FIELDS = ["shipped", "slipping", "blockers", "kpis", "note"] as const;

/** How many of the previous update's items of a section the form can carry (a section holds at most 50). */
const CARRY_MAX = 50;

const strings = (formData: FormData, name: string) =>
  formData.getAll(name).map((value) => (typeof value === "string" ? value : ""));

const blank = (value: string | undefined) => (value ?? "").trim() === "";

const carried = (formData: FormData, prefix: string) =>
  Array.from({ length: CARRY_MAX }, (_, n) => n).filter((n) => formData.get(`${prefix}-${n}`) === "open");

export function dayFormFields(formData: FormData) {
  const slippingItems = strings(formData, "slippingItem");
  const reasons = strings(formData, "slippingReason");
  const dues = strings(formData, "slippingDue");
  const kpiNames = strings(formData, "kpiName");
  const kpiValues = strings(formData, "kpiValue");
  const optional = (value: string | undefined) => (blank(value) ? undefined : value);
  return {
    day: singleField(formData, "day"),
    shipped: strings(formData, "shipped")
      .filter((title) => !blank(title))
      .map((title) => ({ title })),
    slipping: slippingItems
      .map((item, n) => ({ item, reason: optional(reasons[n]), due: optional(dues[n]?.trim()) }))
      .filter((row) => !blank(row.item) || row.reason !== undefined || row.due !== undefined),
    blockers: strings(formData, "blocker")
      .filter((description) => !blank(description))
      .map((description) => ({ description })),
    kpis: kpiNames
      .map((name, n) => ({ name, value: kpiValues[n] ?? "" }))
      .filter((row) => !blank(row.name) || !blank(row.value))
      // A value that is not a number is kept as typed, for the schema to refuse.
      .map((row) => ({ name: row.name, value: blank(row.value) ? Number.NaN : Number(row.value.trim()) })),
    note: singleField(formData, "note") ?? "",
    carryBlockers: carried(formData, "carryBlocker"),
    carrySlipping: carried(formData, "carrySlipping"),
  };
}

const { shipped, slipping, blockers, kpis, note } = updateContentSchema.shape;

export const dayInput = z.object({
  day: daySchema,
  shipped,
  slipping,
  blockers,
  kpis,
  note: note.unwrap(),
  carryBlockers: z.array(z.number().int()),
  carrySlipping: z.array(z.number().int()),
});

export type DayInput = z.infer<typeof dayInput>;
