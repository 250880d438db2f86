import { getOrganizationSettings } from "@/lib/data/organizations";
import { mayReportKpis, saveUpdate, updateContentSchema, type UpdateContent } from "@/lib/data/updates";
import { organizationDay, previousUpdate } from "@/lib/data/your-day";
import { ApiError } from "@/lib/errors";
import { itemKey } from "@/lib/text/item-key";
import { settingsFormAction, type StateOf } from "./action";
import { DAY_FORM_FIELDS, dayFormFields, dayInput, type DayInput } from "./day-inputs";

// "Your day" (app/day) on the settings kit: everyone writes their own update for today, in the organization's time
// zone, through the one write path (saveUpdate; empty removes the day's). The person is the session's, never the
// form's. The day is the form's, checked to be today still: a page left open over midnight does not write into the
// next day unseen.

const DAY_ECHO = {
  shipped: "list",
  slippingItem: "list",
  slippingReason: "list",
  slippingDue: "list",
  blocker: "list",
  kpiName: "list",
  kpiValue: "list",
  note: "text",
} as const;

export type DayField = (typeof DAY_FORM_FIELDS)[number];
export type DayEcho = typeof DAY_ECHO;

/** Today's content: what was typed, after the previous update's items marked still open (each once, by its key). */
function contentOf(input: DayInput, previous: UpdateContent | undefined): UpdateContent {
  const blockerKeys = new Set(input.blockers.map((b) => itemKey(b.description)));
  const slippingKeys = new Set(input.slipping.map((s) => itemKey(s.item)));
  const carriedBlockers = input.carryBlockers
    .map((n) => previous?.blockers[n])
    .filter((b) => b !== undefined && !blockerKeys.has(itemKey(b.description)));
  const carriedSlipping = input.carrySlipping
    .map((n) => previous?.slipping[n])
    .filter((s) => s !== undefined && !slippingKeys.has(itemKey(s.item)));
  return {
    shipped: input.shipped,
    slipping: [...(carriedSlipping as UpdateContent["slipping"]), ...input.slipping],
    blockers: [...(carriedBlockers as UpdateContent["blockers"]), ...input.blockers],
    kpis: input.kpis,
    note: input.note === "" ? null : input.note,
  };
}

export const saveDay = settingsFormAction({
  section: "day",
  read: dayFormFields,
  schema: dayInput,
  form: {
    fields: DAY_FORM_FIELDS,
    echo: DAY_ECHO,
    invalid: "Your update was not saved. Fix the sections marked below.",
    invalidField: "kpis",
  },
  run: async (input, { organizationId, user, now }) => {
    const { timeZone } = await getOrganizationSettings(organizationId);
    const today = organizationDay(now, timeZone).day;
    if (input.day !== today) {
      throw new ApiError(
        "conflict",
        `It is ${today} now in the organization, no longer ${input.day}. Nothing was saved: reload the page to write today’s update.`,
      );
    }
    if (input.kpis.length > 0 && !mayReportKpis(user.role)) {
      throw new ApiError("invalid_parameter", "Only founders and leads report KPI values.");
    }
    const previous = await previousUpdate(organizationId, user.memberId, today);
    const checked = updateContentSchema.safeParse(contentOf(input, previous?.content));
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new ApiError("conflict", `With the items carried forward, ${String(issue.path[0])} ${issue.message}.`);
    }
    const outcome = await saveUpdate(organizationId, {
      memberId: user.memberId,
      day: today,
      content: checked.data,
      source: "page",
    });
    return { status: "saved" as const, day: today, outcome };
  },
  audit: { action: "day.save", done: ({ outcome }) => ({ outcome }) },
});

export type SaveDayState = StateOf<typeof saveDay>;
