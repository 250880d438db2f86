import { describe, expect, it } from "vitest";
import { EMAIL_MASK, HANDLE_MASK } from "@/lib/data/contact-masks";
import { maskContactText } from "@/lib/data/contact-text";
import { knownContactMatcher } from "@/lib/data/known-contact-matcher";
import { scrubContactDetails } from "@/lib/data/scrub";

// The organization's own members' addresses and chat handles, as stored, are removed however they are written
// (docs/api.md, "Contact details"); each case keeps beside them what only looks alike.

const known = knownContactMatcher({
  emails: ["maya.chen@acme.example", "dev@acme.example"],
  handles: ["@mchen", "maya.chen", "dev"],
});

describe("the organization's own contact details in text", () => {
  it.each([
    ["ping @mchen or @maya.chen, not @mchenry", `ping ${HANDLE_MASK} or ${HANDLE_MASK}, not @mchenry`],
    ["cc @MChen and @ｍｃｈｅｎ, thanks Maya Chen", `cc ${HANDLE_MASK} and ${HANDLE_MASK}, thanks Maya Chen`],
    // A Cyrillic с (U+0441) and a zero-width space inside the handle.
    ["@m\u0441hen and @m\u200bchen reviewed", `${HANDLE_MASK} and ${HANDLE_MASK} reviewed`],
    // A handle with a dot needs no at-sign; one of letters alone does (dev is a word and a name).
    ["maya.chen on Slack.", `${HANDLE_MASK} on Slack.`],
    [
      "@dev shipped it; Dev Patel and the dev team reviewed",
      `${HANDLE_MASK} shipped it; Dev Patel and the dev team reviewed`,
    ],
    // A one-dot leader (U+2024) for the dot: no address to the pattern, the member's address to the fold.
    ["mail Maya.Chen＠acme\u2024example today", `mail ${EMAIL_MASK} today`],
  ])("masks %s", (text, served) => expect(maskContactText(text, known)).toBe(served));

  it("masks them in keys and values of report content, and keeps names", () => {
    const content = {
      headline: "Maya Chen: 2 shipped",
      silent: [{ member: "Maya Chen", notes: "dm @mchen" }],
      "@mchen": "late",
    };
    expect(scrubContactDetails(content, known)).toEqual({
      headline: "Maya Chen: 2 shipped",
      silent: [{ member: "Maya Chen", notes: `dm ${HANDLE_MASK}` }],
      [HANDLE_MASK]: "late",
    });
  });
});
