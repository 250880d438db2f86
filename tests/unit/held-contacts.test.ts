import { describe, expect, it } from "vitest";
import { HANDLE_MASK } from "@/lib/data/contact-masks";
import { maskContactText } from "@/lib/data/contact-text";
import { contactsFor, contactsUnheld, heldContacts } from "@/lib/data/held-contacts";
import type { MemberContacts } from "@/lib/data/known-contacts";

// A report read asks for the organization's contacts version and asks again with the details only for a version
// this process does not hold (lib/data/held-contacts.ts). What it must never do: scrub with details other than
// those of the version the database answered, or lose the matcher a read in flight started with.

const A = "6f0c3a52-0000-4000-8000-00000000000a";
const B = "6f0c3a52-0000-4000-8000-00000000000b";
const member = (handle: string): NonNullable<MemberContacts>[number] => [null, handle, null, null];
const versionsHeld = () => [...heldContacts().matchers.keys()];
const masks =
  (version: string, sent = heldContacts()) =>
  (text: string) =>
    maskContactText(text, contactsFor(sent, { organization_id: A, version, members: null }));

describe("the contact matchers a process holds", () => {
  it("learns a version's details once, then serves that version from what the read sent", () => {
    contactsFor(heldContacts(), { organization_id: A, version: "10", members: [member("@ada")] });
    expect(versionsHeld()).toEqual(["10"]);
    expect(masks("10")("ping @ada")).toBe(`ping ${HANDLE_MASK}`);
  });

  it("keeps one version per organization, the newest, even when an older snapshot answers last", () => {
    const sentBefore = heldContacts();
    contactsFor(heldContacts(), { organization_id: A, version: "12", members: [member("@bea")] });
    contactsFor(heldContacts(), { organization_id: B, version: "11", members: [member("@cy")] });
    contactsFor(heldContacts(), { organization_id: A, version: "10", members: [member("@ada")] });
    expect(versionsHeld()).toEqual(["12", "11"]);
    expect(masks("12")("ping @ada and @bea")).toBe(`ping @ada and ${HANDLE_MASK}`);
    // A read that sent version 10 before A moved on still gets version 10's matcher.
    expect(masks("10", sentBefore)("ping @ada and @bea")).toBe(`ping ${HANDLE_MASK} and @bea`);
  });

  it("refuses an answer without details for a version the read does not hold", () => {
    expect(() => masks("99")("text")).toThrow(/version 99/);
  });

  it("asks again with the details exactly when the answer names a version the read does not hold", () => {
    const sent = heldContacts();
    expect(contactsUnheld(sent, { organization_id: A, version: "12", members: null })).toBe(false);
    expect(contactsUnheld(sent, { organization_id: A, version: "14", members: null })).toBe(true);
    // Details brought, or no organization row: nothing to ask again.
    expect(contactsUnheld(sent, { organization_id: A, version: "14", members: [] })).toBe(false);
    expect(contactsUnheld(sent, null)).toBe(false);
  });

  it("serves an organization without members with no matcher to hold", () => {
    const matcher = contactsFor(heldContacts(), { organization_id: B, version: "13", members: [] });
    expect(maskContactText("ping @cy", matcher)).toBe("ping @cy");
    expect(versionsHeld()).toEqual(["12", "13"]);
  });
});
