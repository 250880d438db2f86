import { addDays } from "./calendar";

// Who was silent on a working day, and for how long: the streak of working days without an update ending at the
// day, where days the person was away count neither way (they do not lengthen the streak and do not break it), and
// where no day before the organization's first update, or before the person joined, is counted.

export interface StreakFacts {
  day: string;
  /** The person's latest update day on or before `day`, if any. */
  lastUpdateDay: string | undefined;
  /** The first day that may count: the later of the organization's first update and the person's first day. */
  countsFrom: string;
  isWorkingDay: (day: string) => boolean;
  isAway: (day: string) => boolean;
}

export function silentStreak({ day, lastUpdateDay, countsFrom, isWorkingDay, isAway }: StreakFacts): number {
  let streak = 0;
  for (let d = day; d >= countsFrom && (lastUpdateDay === undefined || d > lastUpdateDay); d = addDays(d, -1)) {
    if (isWorkingDay(d) && !isAway(d)) streak += 1;
  }
  return streak;
}
