import { describe, expect, it } from "vitest";
import { NO_KNOWN_CONTACTS } from "@/lib/data/known-contact-matcher";
import { reportSearchText } from "@/lib/data/report-search-text";

describe("reportSearchText", () => {
  it("puts the headline first and is the same whatever order the keys arrive in", () => {
    const asImported = {
      headline: "Launch",
      shipped: [{ title: "dashboard", owner: "Dev" }],
      blockers: [{ item: "disk" }],
    };
    // jsonb stores keys shortest first: what start-up's fill reads back.
    const asStored = {
      shipped: [{ owner: "Dev", title: "dashboard" }],
      blockers: [{ item: "disk" }],
      headline: "Launch",
    };
    expect(reportSearchText(asStored, NO_KNOWN_CONTACTS)).toBe(reportSearchText(asImported, NO_KNOWN_CONTACTS));
    expect(reportSearchText(asImported, NO_KNOWN_CONTACTS).split("\n")[0]).toBe("Launch");
  });

  it("keeps items in their order and leaves contact details out", () => {
    const text = reportSearchText(
      { headline: "h", slipping: [{ item: "first" }, { item: "second", email: "a@b.co" }] },
      NO_KNOWN_CONTACTS,
    );
    expect(text.indexOf("first")).toBeLessThan(text.indexOf("second"));
    expect(text).not.toContain("a@b.co");
  });
});
