import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isContactKey } from "@/lib/data/contact-keys";
import { CONTACT_LINK_MASK, EMAIL_MASK, MENTION_MASK, PHONE_MASK } from "@/lib/data/contact-masks";
import { maskContactText } from "@/lib/data/contact-text";
import { NO_KNOWN_CONTACTS } from "@/lib/data/known-contact-matcher";
import { withoutInvisibles } from "@/lib/text/invisible-characters";
import { scrubContactDetails } from "@/lib/data/scrub";
import { contactKey, email, mention } from "../helpers/contact-arbitraries";

// What counts as a contact detail (docs/api.md, "Contact details"), pinned by examples and by generated spellings.

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
    // Issue 21: short forms, other languages, social accounts, and look-alike letters (Cyrillic р and е).
    "ph",
    "work_ph",
    "mob",
    "mob_no",
    "wa",
    "handy",
    "im",
    "twitter_handle",
    "github_username",
    "linkedin",
    "zoom_id",
    "msteams_id",
    "correo_electronico",
    "\u0440hone",
    "\u0435mail",
    "W\u043erk_\u0420hone",
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
    "soil_ph",
    "flash_mob",
    "github",
    "github_url",
    "zoom_link",
    "images",
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
    // Issue 21, each beside ordinary data that looks alike and stays.
    ["write maya@acme。example or maya@acme｡example。", `write ${EMAIL_MASK} or ${EMAIL_MASK}。`],
    ['"maya chen"@acme.example and “maya”@acme.example', `${EMAIL_MASK} and ${EMAIL_MASK}`],
    ["maya@[192.0.2.1] or maya@[IPv6:2001:db8::1], not a@[b]", `${EMAIL_MASK} or ${EMAIL_MASK}, not a@[b]`],
    ["call +1 (555) 010-4477 on 2026-11-21", `call ${PHONE_MASK} on 2026-11-21`],
    ["555.010.4477 since build 16.0.1", `${PHONE_MASK} since build 16.0.1`],
    ["+44 20 7946 0958 from 2026-11-21 17:30 on", `${PHONE_MASK} from 2026-11-21 17:30 on`],
    ["(555) 010 4477 at 2026-11-21T17:30:00.000Z", `${PHONE_MASK} at 2026-11-21T17:30:00.000Z`],
    ["＋１ ５５５ ０１０ ４４７７; KPI 1234567 of $1,250,000", `${PHONE_MASK}; KPI 1234567 of $1,250,000`],
    [
      "INV2025550143 paid, order 1234567890 shipped, 2025550143 called",
      `INV2025550143 paid, order 1234567890 shipped, ${PHONE_MASK} called`,
    ],
    ["wa.me/15550104477 and https://t.me/mchen", `${CONTACT_LINK_MASK} and ${CONTACT_LINK_MASK}`],
    ["skype:maya.chen?call, hotel:5 stars", `${CONTACT_LINK_MASK}, hotel:5 stars`],
    ["(tel:+15550104477) github.com/acme/robot", `(${CONTACT_LINK_MASK}) github.com/acme/robot`],
  ])("masks %s", (text, served) => expect(maskContactText(text, NO_KNOWN_CONTACTS)).toBe(served));

  it.each([
    "upgraded next@16.0.1 and @types/node@20.19",
    "Maya Chen and Dev Patel shipped it",
    "see <#C123|eng>, <!here> and a<b>c",
    "if x <@ threshold then alert",
    "@maya will follow up",
  ])("leaves %s as it is", (text) => expect(maskContactText(text, NO_KNOWN_CONTACTS)).toBe(text));
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
    expect(scrubContactDetails(content, NO_KNOWN_CONTACTS)).toEqual({
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
    expect(scrubContactDetails(content, NO_KNOWN_CONTACTS)).toEqual({
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
        const served = scrubContactDetails(
          { owner: "Maya Chen", [key]: "VALUE-THAT-MUST-NOT-SHOW" },
          NO_KNOWN_CONTACTS,
        );
        expect(served).toEqual({ owner: "Maya Chen" });
      }),
      { numRuns: 2000 },
    );
  });

  it("masks every generated e-mail address and mention, in text and as a key", () => {
    fc.assert(
      fc.property(fc.oneof(email(), mention), ordinaryText, ordinaryText, (detail, before, after) => {
        const text = `${before} ${detail} ${after}`;
        const served = JSON.stringify(scrubContactDetails({ notes: text, [detail]: before }, NO_KNOWN_CONTACTS));
        expect(served).not.toContain(detail);
        expect(served).not.toMatch(/[@＠﹫]/);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps names and ordinary content as they are, less their invisible characters", () => {
    const ordinaryContent = fc.dictionary(
      fc.constantFrom(...ORDINARY_KEYS),
      // Integers of a phone number's length are phone numbers when the numbering plan says so (contact-spellings).
      fc.oneof(ordinaryText, fc.integer({ min: -999_999_999, max: 999_999_999 }), fc.boolean(), fc.array(ordinaryText)),
    );
    // Served without invisible characters (issue 34), and otherwise as written.
    const readable = (value: unknown): unknown =>
      typeof value === "string"
        ? withoutInvisibles(value)
        : Array.isArray(value)
          ? value.map(readable)
          : value !== null && typeof value === "object"
            ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, readable(inner)]))
            : value;
    fc.assert(
      fc.property(fc.array(ordinaryContent, { maxLength: 4 }), ordinaryText, (items, headline) => {
        const content = { headline, blockers: items };
        expect(scrubContactDetails(content, NO_KNOWN_CONTACTS)).toEqual(readable(content));
      }),
      { numRuns: 1000 },
    );
  });
});
