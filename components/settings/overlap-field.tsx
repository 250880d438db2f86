"use client";

import { useId } from "react";
import type { KeyOverlap } from "@/lib/schemas/key-overlap";

// The overlap choices every surface offers (lib/schemas/key-overlap.ts) but the first, which each page words for
// what it rolls; typed over the choices, so a new one cannot go unlabelled.
const LATER_OVERLAP_LABELS: Record<Exclude<KeyOverlap, "0">, string> = {
  "1h": "1 hour",
  "24h": "24 hours",
  "7d": "7 days",
};

/**
 * Long enough for an agent that runs once a day to pick up its new key before the old one stops, and to deploy a
 * new signing secret to a receiver during a working day.
 */
const DEFAULT_OVERLAP: KeyOverlap = "24h";

interface Props {
  /** The question the choice answers, e.g. "The old key keeps working for". */
  label: string;
  /** The "0" choice, said for what stops, e.g. "No overlap: the old key stops now". */
  noOverlap: string;
}

/** How long the old key or secret still works after a roll: the `overlap` field of a roll dialog's form. */
export function OverlapField({ label, noOverlap }: Props) {
  const id = useId();
  const labels: Record<KeyOverlap, string> = { "0": noOverlap, ...LATER_OVERLAP_LABELS };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name="overlap" defaultValue={DEFAULT_OVERLAP}>
        {(Object.keys(labels) as KeyOverlap[]).map((overlap) => (
          <option key={overlap} value={overlap}>
            {labels[overlap]}
          </option>
        ))}
      </select>
    </div>
  );
}
