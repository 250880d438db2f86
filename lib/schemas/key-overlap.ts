import { z } from "zod";

const HOUR_MS = 3_600_000;

/**
 * How long a rolled key keeps working next to its replacement, the same choices on every surface that rolls
 * (the settings page's select, the CLI's --overlap). "0" stops the old key at once.
 */
export const KEY_OVERLAPS = { "0": 0, "1h": HOUR_MS, "24h": 24 * HOUR_MS, "7d": 7 * 24 * HOUR_MS } as const;

export type KeyOverlap = keyof typeof KEY_OVERLAPS;

export const KEY_OVERLAP_CHOICES = Object.keys(KEY_OVERLAPS) as KeyOverlap[];

export const keyOverlapSchema = z.enum(KEY_OVERLAP_CHOICES, {
  error: `Choose an overlap: ${KEY_OVERLAP_CHOICES.join(", ")}.`,
});
