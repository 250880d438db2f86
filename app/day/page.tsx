import type { Metadata } from "next";
import { DayForm, type DayValues } from "@/components/day/day-form";
import type { CarryOffer } from "@/components/day/carry-forward";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { listKpiTargets } from "@/lib/data/kpi-targets";
import { getOrganizationSettings, weekdaysText } from "@/lib/data/organizations";
import { getUpdate, mayReportKpis, UPDATE_LIMITS, type UpdateContent } from "@/lib/data/updates";
import { organizationDay, previousUpdate } from "@/lib/data/your-day";
import { itemKey } from "@/lib/text/item-key";
import { YOUR_DAY } from "@/lib/settings/sections";
import { saveDayAction } from "./actions";

export const metadata: Metadata = { title: YOUR_DAY.label };

// A calendar date as people say it; the date is the organization's already, so it is formatted in UTC.
const dateFormat = new Intl.DateTimeFormat("en-GB", {
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});
const dateLabel = (day: string) => dateFormat.format(new Date(`${day}T12:00:00Z`));

function valuesOf(content: UpdateContent | undefined): DayValues {
  return {
    shipped: content?.shipped.map((s) => s.title) ?? [],
    slipping: content?.slipping.map((s) => ({ item: s.item, reason: s.reason ?? "", due: s.due ?? "" })) ?? [],
    blockers: content?.blockers.map((b) => b.description) ?? [],
    kpis: content?.kpis.map((k) => ({ name: k.name, value: String(k.value) })) ?? [],
    note: content?.note ?? "",
  };
}

/** The previous update's blockers and slipping items that today's does not hold already (by their folded text). */
function offerOf(previous: { day: string; content: UpdateContent } | null, today: UpdateContent | undefined) {
  if (!previous) return null;
  const blockers = new Set(today?.blockers.map((b) => itemKey(b.description)));
  const slipping = new Set(today?.slipping.map((s) => itemKey(s.item)));
  const offer: CarryOffer = {
    dayLabel: dateLabel(previous.day),
    blockers: previous.content.blockers
      .map((b, n) => ({ n, text: b.description }))
      .filter(({ text }) => !blockers.has(itemKey(text))),
    slipping: previous.content.slipping
      .map((s, n) => ({ n, text: s.due ? `${s.item} (due ${s.due})` : s.item, key: itemKey(s.item) }))
      .filter(({ key }) => !slipping.has(key))
      .map(({ n, text }) => ({ n, text })),
  };
  return offer.blockers.length + offer.slipping.length > 0 ? offer : null;
}

// Everyone's own update for today, in the organization's time zone. What the person wrote is shown back as written,
// contact details included: it is their own text (reports and the API mask them).
export default settingsPage("day", async ({ user, heading }) => {
  const organizationId = user.organization.id;
  const settings = await getOrganizationSettings(organizationId);
  const today = organizationDay(new Date(), settings.timeZone);
  const [stored, previous, targets] = await Promise.all([
    getUpdate(organizationId, user.memberId, today.day),
    previousUpdate(organizationId, user.memberId, today.day),
    mayReportKpis(user.role) ? listKpiTargets(organizationId) : null,
  ]);
  const days = weekdaysText(settings.workingDays);
  const workingDay = settings.workingDays.includes(today.weekday);
  const afterCutoff = workingDay && today.time >= settings.cutoffTime;
  return (
    <>
      <SectionHead title={heading}>
        <strong>{dateLabel(today.day)}</strong> ({settings.timeZone.replaceAll("_", " ")}). Reports are written at{" "}
        {settings.cutoffTime} ({days}).
      </SectionHead>
      <div className="stack">
        {afterCutoff && (
          <p className="alert alert--warning">
            It is past {settings.cutoffTime}: today&rsquo;s reports are written, so saving now rewrites them.
          </p>
        )}
        {!workingDay && (
          <p className="alert alert--warning">
            Today is not a working day ({days}): no reports are written for it, but your update is kept.
          </p>
        )}
        <DayForm
          action={saveDayAction}
          day={today.day}
          current={valuesOf(stored?.content)}
          written={stored !== null}
          offer={offerOf(previous, stored?.content)}
          kpiNames={targets && targets.map((t) => t.name)}
          afterCutoff={afterCutoff}
          limits={UPDATE_LIMITS}
        />
      </div>
    </>
  );
});
