import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "@/lib/cli/commands";
import { setOrganizationTimeZone } from "@/lib/data/organizations";
import { getDb } from "@/lib/db";

// `sundown orgs update <slug> --time-zone <name>`: the organization's IANA time zone, UTC until someone sets it.

let org: { id: string; slug: string };

beforeAll(async () => {
  const db = await getDb();
  org = await db.organization.create({
    data: { slug: `zone-${randomUUID().slice(0, 8)}`, name: "Zone" },
    select: { id: true, slug: true },
  });
});

afterAll(async () => {
  const db = await getDb();
  await db.organization.delete({ where: { id: org.id } });
});

const zoneOf = async (slug: string) =>
  (await (await getDb()).organization.findUniqueOrThrow({ where: { slug }, select: { timeZone: true } })).timeZone;

describe("an organization's time zone", () => {
  it("is UTC for an organization nobody set it for, the demo ones included", async () => {
    expect(await zoneOf(org.slug)).toBe("UTC");
    expect(await zoneOf("acme")).toBe("UTC");
  });

  it("is set by name or alias, stored canonical, and says what it replaced", async () => {
    await expect(runCommand("orgs.update", { org: org.slug, timeZone: "US/Pacific" })).resolves.toEqual({
      organization: { id: org.id, slug: org.slug, name: "Zone" },
      time_zone: "America/Los_Angeles",
      previous_time_zone: "UTC",
    });
    expect(await zoneOf(org.slug)).toBe("America/Los_Angeles");
    await expect(runCommand("orgs.update", { org: org.id, timeZone: "Europe/Berlin" })).resolves.toMatchObject({
      time_zone: "Europe/Berlin",
      previous_time_zone: "America/Los_Angeles",
    });
  });

  it("refuses a name the runtime does not know, and one the database does not, changing nothing", async () => {
    await expect(runCommand("orgs.update", { org: org.slug, timeZone: "Mars/Olympus" })).rejects.toThrow(
      /timeZone: "Mars\/Olympus" is not an IANA time zone/,
    );
    await expect(setOrganizationTimeZone(org.id, "Mars/Olympus", { label: "test" })).rejects.toThrow(
      "The database does not know the time zone Mars/Olympus; update its time zone data, or choose another name.",
    );
    expect(await zoneOf(org.slug)).toBe("Europe/Berlin");
  });

  it("refuses an unknown organization", async () => {
    await expect(runCommand("orgs.update", { org: "no-such-org", timeZone: "UTC" })).rejects.toThrow(
      'No organization "no-such-org". Run `sundown orgs list` to see them.',
    );
  });
});
