"use client";

import { useActionState } from "react";
import type { FormRefused } from "@/lib/settings/action";
import type { DayEcho, DayField, SaveDayState } from "@/lib/settings/day-actions";
import { FieldError, FormRefusal } from "../settings/refusals";
import { SubmitButton } from "../settings/submit-button";
import { CarryForward, type CarryOffer } from "./carry-forward";

/** Today's update as the form shows it: what is stored, or what a refused form was sent. */
export interface DayValues {
  shipped: string[];
  slipping: { item: string; reason: string; due: string }[];
  blockers: string[];
  kpis: { name: string; value: string }[];
  note: string;
}

interface Props {
  action: (previous: SaveDayState, formData: FormData) => Promise<SaveDayState>;
  day: string;
  current: DayValues;
  /** Whether today's update is stored (its previous day's items not in it were judged resolved). */
  written: boolean;
  offer: CarryOffer | null;
  /** Founders and leads report KPI values; the names of the organization's targets are offered. */
  kpiNames: string[] | null;
  /** Said after a save when the day's reports are written already: saving writes them again. */
  afterCutoff: boolean;
  /** The longest an item's text and the note may be (lib/data/updates.ts). */
  limits: { textMax: number; noteMax: number };
}

const FIELD_IDS: Record<DayField, string> = {
  shipped: "day-shipped-0",
  slipping: "day-slipping-item-0",
  blockers: "day-blocker-0",
  kpis: "day-kpi-name-0",
  note: "day-note",
};

/** A section's rows: its items, then blank ones to add to (after a save, new blank rows appear: no script needed). */
const rows = <T,>(items: T[], blank: T, spare: number, least: number) => [
  ...items,
  ...Array.from({ length: Math.max(spare, least - items.length) }, () => blank),
];

function valuesOf(refused: FormRefused<DayField, DayEcho>): DayValues {
  const v = refused.values;
  return {
    shipped: v.shipped,
    slipping: v.slippingItem.map((item, n) => ({
      item,
      reason: v.slippingReason[n] ?? "",
      due: v.slippingDue[n] ?? "",
    })),
    blockers: v.blocker,
    kpis: v.kpiName.map((name, n) => ({ name, value: v.kpiValue[n] ?? "" })),
    note: v.note,
  };
}

const SAVED = {
  added: "Saved: today’s update is written.",
  replaced: "Saved: today’s update now says this.",
  unchanged: "Nothing to save: today’s update says this already.",
  removed: "Today’s update is removed: it was saved empty.",
} as const;

/** "Your day": today's update as one form, working before (and without) the page's JavaScript. */
export function DayForm({ action, day, current, written, offer, kpiNames, afterCutoff, limits }: Props) {
  const text = { type: "text", maxLength: limits.textMax } as const;
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const refused = state.status === "error" ? (state as FormRefused<DayField, DayEcho>) : undefined;
  const values = refused ? valuesOf(refused) : current;
  const errors = refused?.fieldErrors ?? {};
  const described = (id: string, field: DayField) => (errors[field] ? `${id}-error` : undefined);
  return (
    <section className="card" aria-labelledby="day-form-title">
      <h2 id="day-form-title">Today&rsquo;s update</h2>
      {state.status === "saved" && (
        <p className="alert alert--success" role="status" style={{ marginBottom: "1rem" }}>
          {SAVED[state.outcome]}
          {afterCutoff && state.outcome !== "unchanged" && " Today’s reports will be written again with it."}
        </p>
      )}
      <form
        key={refused ? JSON.stringify(values) : JSON.stringify(current)}
        action={formAction}
        className="form"
        noValidate
      >
        <FormRefusal state={state} fieldIds={FIELD_IDS} />
        <input type="hidden" name="day" value={day} />
        {offer && <CarryForward offer={offer} resolvedByDefault={written} />}

        <fieldset className="field day-section" aria-describedby={described(FIELD_IDS.shipped, "shipped")}>
          <legend>Shipped</legend>
          <p className="hint">What you finished or released today, one item a line.</p>
          {rows(values.shipped, "", 1, 3).map((title, n) => (
            <div key={n}>
              <label className="visually-hidden" htmlFor={`day-shipped-${n}`}>
                Shipped item {n + 1}
              </label>
              <input id={`day-shipped-${n}`} {...text} name="shipped" defaultValue={title} />
            </div>
          ))}
          <FieldError fieldId={FIELD_IDS.shipped} error={errors.shipped} />
        </fieldset>

        <fieldset className="field day-section" aria-describedby={described(FIELD_IDS.slipping, "slipping")}>
          <legend>Slipping</legend>
          <p className="hint">What is late or will be: the item, and if you like why and when it is now due.</p>
          {rows(values.slipping, { item: "", reason: "", due: "" }, 1, 2).map((row, n) => (
            <div className="day-row" key={n}>
              <div>
                <label htmlFor={`day-slipping-item-${n}`}>Slipping item {n + 1}</label>
                <input id={`day-slipping-item-${n}`} {...text} name="slippingItem" defaultValue={row.item} />
              </div>
              <div>
                <label htmlFor={`day-slipping-reason-${n}`}>
                  Reason (optional)<span className="visually-hidden"> for slipping item {n + 1}</span>
                </label>
                <input id={`day-slipping-reason-${n}`} {...text} name="slippingReason" defaultValue={row.reason} />
              </div>
              <div>
                <label htmlFor={`day-slipping-due-${n}`}>
                  Due (optional)<span className="visually-hidden"> for slipping item {n + 1}</span>
                </label>
                <input id={`day-slipping-due-${n}`} type="date" name="slippingDue" defaultValue={row.due} />
              </div>
            </div>
          ))}
          <FieldError fieldId={FIELD_IDS.slipping} error={errors.slipping} />
        </fieldset>

        <fieldset className="field day-section" aria-describedby={described(FIELD_IDS.blockers, "blockers")}>
          <legend>Blockers</legend>
          <p className="hint">What stops you, and who or what you are waiting for.</p>
          {rows(values.blockers, "", 1, 2).map((description, n) => (
            <div key={n}>
              <label className="visually-hidden" htmlFor={`day-blocker-${n}`}>
                Blocker {n + 1}
              </label>
              <input id={`day-blocker-${n}`} {...text} name="blocker" defaultValue={description} />
            </div>
          ))}
          <FieldError fieldId={FIELD_IDS.blockers} error={errors.blockers} />
        </fieldset>

        {kpiNames && (
          <fieldset className="field day-section" aria-describedby={described(FIELD_IDS.kpis, "kpis")}>
            <legend>KPI values</legend>
            <p className="hint">
              Founders and leads report KPIs: a name{kpiNames.length > 0 && " (the organization’s targets are offered)"}{" "}
              and today&rsquo;s value, a number.
            </p>
            {kpiNames.length > 0 && (
              <datalist id="day-kpi-names">
                {kpiNames.map((name) => (
                  <option key={name} value={name} />
                ))}
              </datalist>
            )}
            {rows(values.kpis, { name: "", value: "" }, 1, 2).map((row, n) => (
              <div className="day-row day-row--pair" key={n}>
                <div>
                  <label htmlFor={`day-kpi-name-${n}`}>KPI {n + 1}</label>
                  <input
                    id={`day-kpi-name-${n}`}
                    {...text}
                    name="kpiName"
                    list={kpiNames.length > 0 ? "day-kpi-names" : undefined}
                    defaultValue={row.name}
                  />
                </div>
                <div>
                  <label htmlFor={`day-kpi-value-${n}`}>
                    Value<span className="visually-hidden"> of KPI {n + 1}</span>
                  </label>
                  <input
                    id={`day-kpi-value-${n}`}
                    type="text"
                    inputMode="decimal"
                    name="kpiValue"
                    defaultValue={row.value}
                  />
                </div>
              </div>
            ))}
            <FieldError fieldId={FIELD_IDS.kpis} error={errors.kpis} />
          </fieldset>
        )}

        <div className="field">
          <label htmlFor={FIELD_IDS.note}>Note</label>
          <textarea
            id={FIELD_IDS.note}
            name="note"
            maxLength={limits.noteMax}
            defaultValue={values.note}
            aria-invalid={errors.note ? true : undefined}
            aria-describedby={errors.note ? `${FIELD_IDS.note}-hint ${FIELD_IDS.note}-error` : `${FIELD_IDS.note}-hint`}
          />
          <p id={`${FIELD_IDS.note}-hint`} className="hint">
            Anything else for your lead. Need more rows above? Save, and empty ones appear.
          </p>
          <FieldError fieldId={FIELD_IDS.note} error={errors.note} />
        </div>
        <SubmitButton pending={pending} label="Save today’s update" busy="Saving…" />
      </form>
    </section>
  );
}
