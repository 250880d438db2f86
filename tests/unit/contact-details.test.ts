import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isContactKey } from "@/lib/data/contact-keys";
import { EMAIL_MASK, MENTION_MASK, maskContactText } from "@/lib/data/contact-text";
import { scrubContactDetails } from "@/lib/data/scrub";
import { contactKey, email, mention } from "../helpers/contact-arbitraries";

// What counts as a contact detail (DESIGN.md, "contact details"), pinned by examples and by generated spellings.

describe("contact keys", () => {
  it.each([
    "email",
    "e_mail",
    "E-Mail",
    "eMail",
    "EMAIL_ADDRESS",
    "emailAddresses",
    "work_email",
    "assignee_email",
    "workemail",
    "phone",
    "phone_number",
    "Phone No.",
    "mobile",
    "mobile_phone",
    "work_phone",
    "cell",
    "cell_phone",
    "tel",
    "fax",
    "whatsapp",
    "WhatsApp",
    "whatsapp_number",
    "skype",
    "skype_name",
    "telegram_handle",
    "slack",
    "slack_id",
    "slackMemberId",
    "SLACK_USER_ID",
    "slackHandle",
    "discordId",
    "chat_id",
    "chat_handle",
    "teams_user_id",
    "signal_number",
    "contact",
    "contacts",
    "contact_info",
    "reach_me",
    "how_to_reach_me",
    "ｅｍａｉｌ",
    "Téléphone",
    "phone2",
    "email_1",
    "personal-phone-numbers",
    "Mobile Phone",
  ])("%s is a contact key", (key) => expect(isContactKey(key)).toBe(true));

  it.each([
    "name",
    "owner",
    "author",
    "assignee",
    "title",
    "notes",
    "member",
    "member_id",
    "headline",
    "status",
    "emailed",
    "email_count",
    "emails_sent",
    "chatter",
    "telephone_count",
    "mailing_list",
    "telemetry",
    "hotel",
    "cellular_network_kpi",
    "cellular",
    "phone_model",
    "mobile_app_version",
    "mobile_users",
    "teams",
    "signal",
    "signal_strength",
    "chat",
    "matrix",
    "reach",
    "contacted",
    "last_contacted_at",
    "contact_count",
    "slack_days",
  ])("%s is not a contact key", (key) => expect(isContactKey(key)).toBe(false));
});

describe("contact details in text", () => {
  it.each([
    ["ask mayá@acme.example today", `ask ${EMAIL_MASK} today`],
    ["maya＠acme.example", EMAIL_MASK],
    ["maya﹫acme．example, thanks", `${EMAIL_MASK}, thanks`],
    ["пётр@пример.рф", EMAIL_MASK],
    ["bob.smith+eod@acme.example or ann@x.co.uk", `${EMAIL_MASK} or ${EMAIL_MASK}`],
    ["ping <@U0MAYA03> about it", `ping ${MENTION_MASK} about it`],
    [
      "<@W123|maya> and <!subteam^S123> and <!subteam^S9|@eng>",
      `${MENTION_MASK} and ${MENTION_MASK} and ${MENTION_MASK}`,
    ],
    ["discord <@!1234> <@&987>", `discord ${MENTION_MASK} ${MENTION_MASK}`],
  ])("masks %s", (text, served) => expect(maskContactText(text)).toBe(served));

  it.each([
    "upgraded next@16.0.1 and @types/node@20.19",
    "Maya Chen and Dev Patel shipped it",
    "see <#C123|eng>, <!here> and a<b>c",
    "if x <@ threshold then alert",
    "@maya will follow up",
  ])("leaves %s as it is", (text) => expect(maskContactText(text)).toBe(text));
});

describe("contact details in report content", () => {
  it("drops the issue's spellings and keeps names", () => {
    const content = {
      headline: "Ship it",
      silent: [
        {
          member: "Maya Chen",
          mobile_phone: "+1 555 0100",
          work_phone: "+1 555 0101",
          cell: "555",
          whatsapp_number: "+49 1",
          skype: "maya.c",
          slackMemberId: "U0MAYA03",
          contact: "maya@acme",
          reach_me: "dm me",
          notes: "ask <@U0MAYA03>",
        },
      ],
      blockers: [{ owner: "Dev Patel", title: "mail mayá@acme.example or maya＠acme.example" }],
    };
    expect(scrubContactDetails(content)).toEqual({
      headline: "Ship it",
      silent: [{ member: "Maya Chen", notes: `ask ${MENTION_MASK}` }],
      blockers: [{ owner: "Dev Patel", title: `mail ${EMAIL_MASK} or ${EMAIL_MASK}` }],
    });
  });

  it("masks an e-mail used as a key, keeps its scrubbed value, and numbers keys that collide", () => {
    const content = {
      "maya@acme.example": { status: "late", email: "maya@acme.example" },
      "dev@acme.example": "on leave",
      "[email hidden]": "a key that was already this text",
      "notes for ann@x.example": 1,
    };
    expect(scrubContactDetails(content)).toEqual({
      [`${EMAIL_MASK} (2)`]: { status: "late" },
      [`${EMAIL_MASK} (3)`]: "on leave",
      [EMAIL_MASK]: "a key that was already this text",
      [`notes for ${EMAIL_MASK}`]: 1,
    });
  });
});

const NAMES = ["Maya Chen", "Dev Patel", "Ana", "Liam O'Brien", "Zoë Müller", "李雷"];
const ORDINARY_KEYS = [
  "name",
  "owner",
  "author",
  "assignee",
  "title",
  "notes",
  "member",
  "status",
  "telemetry",
  "cellular_network_kpi",
  "days_late",
  "mailing_list",
  "teams",
];
// Ordinary text: anything without an at-sign or a "<" (which is what every detail needs), plus names.
const ordinaryText = fc.oneof(
  fc.constantFrom(...NAMES),
  fc.string({ unit: "grapheme", maxLength: 40 }).filter((s) => !/[@＠﹫<]/.test(s)),
);

describe("generated contact details", () => {
  it("drops every generated spelling of a contact key, with its value", () => {
    fc.assert(
      fc.property(contactKey, (key) => {
        expect(isContactKey(key)).toBe(true);
        const served = scrubContactDetails({ owner: "Maya Chen", [key]: "VALUE-THAT-MUST-NOT-SHOW" });
        expect(served).toEqual({ owner: "Maya Chen" });
      }),
      { numRuns: 2000 },
    );
  });

  it("masks every generated e-mail address and mention, in text and as a key", () => {
    fc.assert(
      fc.property(fc.oneof(email(), mention), ordinaryText, ordinaryText, (detail, before, after) => {
        const text = `${before} ${detail} ${after}`;
        const served = JSON.stringify(scrubContactDetails({ notes: text, [detail]: before }));
        expect(served).not.toContain(detail);
        expect(served).not.toMatch(/[@＠﹫]/);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps names and ordinary content exactly as they are", () => {
    const ordinaryContent = fc.dictionary(
      fc.constantFrom(...ORDINARY_KEYS),
      fc.oneof(ordinaryText, fc.integer(), fc.boolean(), fc.array(ordinaryText)),
    );
    fc.assert(
      fc.property(fc.array(ordinaryContent, { maxLength: 4 }), ordinaryText, (items, headline) => {
        const content = { headline, blockers: items };
        expect(scrubContactDetails(content)).toEqual(content);
      }),
      { numRuns: 1000 },
    );
  });
});
