import { z } from "zod";

// The briefing's answer (GET /api/v1/briefing, get_briefing): what lib/data/briefing.ts computes, as the API serves it.
// The field names are an interface agents rely on (issue 39).

/** `limit`: items per section. */
export const BRIEFING_LIMIT = { min: 1, max: 100, default: 10 } as const;
/** Report ids per blocker, and titles per person: the newest, so an answer stays far below a model's budget. */
export const BRIEFING_LISTED_MAX = 10;
const LISTED_MAX = BRIEFING_LISTED_MAX;

const instant = z.string().meta({ format: "date-time" });
const nullableText = z.string().nullable();

function section<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    count: z.int().meta({ description: "How many the section has in all." }),
    limit: z.int().meta({ description: "At most this many are listed (the `limit` parameter)." }),
    more: z.int().meta({ description: "How many more there are than listed." }),
  });
}

const blockerSchema = z.object({
  text: nullableText.meta({ description: "The blocker as its newest report writes it; null when it has none." }),
  owner: nullableText.meta({ description: "The owner as written." }),
  member_id: z.string().nullable().meta({ description: "The roster member the owner names, when one does." }),
  first_reported_at: instant,
  last_reported_at: instant,
  days_open: z
    .int()
    .nullable()
    .meta({ description: "Whole days open at the period's end (or until resolved); null without text." }),
  resolved: z.boolean().meta({ description: "True when it was dropped within the period: no longer open." }),
  resolved_at: instant.nullable(),
  report_ids: z.array(z.string()).meta({ description: `The newest ${LISTED_MAX} reports listing it.` }),
  report_count: z.int(),
});

const silentSchema = z.object({
  member: nullableText,
  member_id: z.string().nullable(),
  days: z.int().nullable().meta({
    description: "The silent streak in days, as the newest report gives it, less the days the person was absent.",
  }),
  since: z.string().nullable().meta({
    description: "The streak's first day the person was not absent, in the organization's time zone.",
  }),
  reported_at: instant,
  report_id: z.string(),
});

const slippingSchema = z.object({
  owner: nullableText,
  member_id: z.string().nullable(),
  count: z.int(),
  items: z.array(
    z.object({
      text: nullableText,
      days_late: z.int().nullable(),
      reason: nullableText,
      first_seen_at: instant,
      last_seen_at: instant,
    }),
  ),
});

const kpiValue = z.union([z.number(), z.string()]).nullable();

const kpiSchema = z.object({
  name: z.string(),
  value: kpiValue,
  unit: nullableText,
  target: kpiValue,
  status: nullableText,
  reported_at: instant,
  series: z.array(z.object({ day: z.string(), value: kpiValue, status: nullableText })),
  status_changes: z.array(z.object({ day: z.string(), from: nullableText, to: nullableText })),
});

const shippedSchema = z.object({
  owner: nullableText,
  member_id: z.string().nullable(),
  count: z.int(),
  titles: z.array(z.string()).meta({ description: `The newest ${LISTED_MAX} titles.` }),
});

export const briefingSchema = z
  .object({
    period: z.object({
      since: instant.meta({ description: "The period's first instant (UTC)." }),
      until: instant.meta({ description: "The period's last instant (UTC)." }),
      time_zone: z.string().meta({ description: "The organization's time zone, in which dates are days." }),
      reports: z.int().meta({ description: "How many reports the period holds." }),
    }),
    blockers: section(blockerSchema),
    silent: section(silentSchema),
    slipping: section(slippingSchema),
    kpis: section(kpiSchema),
    shipped: section(shippedSchema),
  })
  .meta({ id: "Briefing" });

export type Briefing = z.infer<typeof briefingSchema>;
