import { existsSync } from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SectionRefusal } from "@/components/settings/section-refusal";
import type { SessionUser } from "@/lib/data/users";
import type { MemberRole } from "@/lib/schemas/team";
import { requireSectionAccess } from "@/lib/settings/section-access";
import {
  firstSectionFor,
  mayOpen,
  sectionsFor,
  SETTINGS_SECTIONS,
  settingsSection,
  type SettingsSection,
} from "@/lib/settings/sections";

// The settings sections as one list: the navigation a role sees, where /settings leads, and what a section says to
// someone it refuses, all read from it.

const ROOT = path.resolve(import.meta.dirname, "../..");

const as = (role: MemberRole): SessionUser => ({
  userId: "u",
  email: "e@example.com",
  memberId: "m",
  name: "Ana Lima",
  role,
  organization: { id: "o", slug: "acme", name: "Acme Robotics" },
});

/** A section only founders may open, as the organization's time zone will be. */
const foundersOnly: SettingsSection = {
  id: "organization",
  label: "Organization",
  href: "/settings/organization",
  access: "founders",
  manage: "change the organization’s time zone",
  refusal: { why: "It moves every day the reports are filed under." },
};

const text = (html: string) => html.replace(/<[^>]+>/g, "").replaceAll("&#x27;", "'");

describe("the settings sections", () => {
  it("each has its page under app/settings at its own path", () => {
    expect(new Set(SETTINGS_SECTIONS.map((s) => s.id)).size).toBe(SETTINGS_SECTIONS.length);
    for (const section of SETTINGS_SECTIONS) {
      expect(section.href).toBe(`/settings/${section.id}`);
      expect(existsSync(path.join(ROOT, "app/settings", section.id, "page.tsx")), section.id).toBe(true);
    }
  });

  it("are listed for the roles their rule admits, in order, and /settings leads to the first of them", () => {
    expect(sectionsFor(as("founder")).map((s) => s.id)).toEqual([
      "api-keys",
      "webhooks",
      "team",
      "reports",
      "ingest-tokens",
      "organization",
    ]);
    // Leads see the organization's settings; only founders change them.
    expect(sectionsFor(as("lead")).map((s) => s.id)).toEqual([
      "api-keys",
      "webhooks",
      "team",
      "reports",
      "ingest-tokens",
      "organization",
    ]);
    expect(sectionsFor(as("member"))).toEqual([]);
    expect(firstSectionFor(as("lead")).href).toBe("/settings/api-keys");
    // A member may open none: /settings leads them to their day.
    expect(firstSectionFor(as("member")).href).toBe("/day");
  });

  it("admit by their rule: a founders' section refuses a lead", () => {
    expect(mayOpen(as("founder"), foundersOnly)).toBe(true);
    expect(mayOpen(as("lead"), foundersOnly)).toBe(false);
    expect(mayOpen(as("member"), { ...foundersOnly, access: "everyone" })).toBe(true);
  });

  it("refuse their actions in their own words", () => {
    expect(() => requireSectionAccess(as("member"), "webhooks")).toThrow(
      expect.objectContaining({ reason: "forbidden", message: "Only founders and leads can manage webhooks." }),
    );
    expect(() => requireSectionAccess(null, "webhooks")).toThrow(
      expect.objectContaining({
        reason: "signed_out",
        message: "Your session has ended. Sign in again to manage webhooks.",
      }),
    );
    expect(requireSectionAccess(as("lead"), "webhooks").role).toBe("lead");
  });

  it("tell someone they refuse the rule, why, and whom to ask", () => {
    const keys = text(
      renderToStaticMarkup(createElement(SectionRefusal, { section: settingsSection("api-keys"), user: as("member") })),
    );
    expect(keys).toBe(
      "Only founders and leads manage API keys" +
        "You are signed in as a member of Acme Robotics. API keys give agents and scripts read access to the whole " +
        "organization’s reports and roster, so only its founders and leads can create or revoke them." +
        "Need a key for a tool? Ask a founder or lead of Acme Robotics. Meanwhile, the API docs describe what a key can do.",
    );
    const organization = text(
      renderToStaticMarkup(createElement(SectionRefusal, { section: foundersOnly, user: as("lead") })),
    );
    expect(organization).toBe(
      "Only founders change the organization’s time zone" +
        "You are signed in as a lead of Acme Robotics. It moves every day the reports are filed under." +
        "Ask a founder of Acme Robotics.",
    );
  });
});
