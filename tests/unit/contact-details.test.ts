import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isContactKey } from "@/lib/data/contact-keys";
import { EMAIL_MASK, MENTION_MASK, maskContactText } from "@/lib/data/contact-text";
import { scrubContactDetails } from "@/lib/data/scrub";

// What counts as a contact detail (DESIGN.md, "contact details"), pinned by examples and by generated spellings.

describe("contact keys", () => {
  it.each([
    "email", "e_mail", "E-Mail", "eMail", "EMAIL_ADDRESS", "emailAddresses", "work_email", "assignee_email", "workemail",
    "phone", "phone_number", "Phone No.", "mobile", "mobile_phone", "work_phone", "cell", "cell_phone", "tel", "fax",
    "whatsapp", "WhatsApp", "whatsapp_number", "skype", "skype_name", "telegram_handle", "slack", "slack_id",
    "slackMemberId", "SLACK_USER_ID", "slackHandle", "discordId", "chat_id", "chat_handle", "teams_user_id",
    "signal_number", "contact", "contacts", "contact_info", "reach_me", "how_to_reach_me", "ｅｍａｉｌ", "Téléphone",
    "phone2", "email_1", "personal-phone-numbers", "Mobile Phone",
  ])("%s is a contact key", (key) => expect(isContactKey(key)).toBe(true));

  it.each([
    "name", "owner", "author", "assignee", "title", "notes", "member", "member_id", "headline", "status",
    "emailed", "email_count", "emails_sent", "chatter", "telephone_count", "mailing_list", "telemetry", "hotel",
    "cellular_network_kpi", "cellular", "phone_model", "mobile_app_version", "mobile_users", "teams", "signal",
    "signal_strength", "chat", "matrix", "reach", "contacted", "last_contacted_at", "contact_count", "slack_days",
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
    ["<@W123|maya> and <!subteam^S123> and <!subteam^S9|@eng>", `${MENTION_MASK} and ${MENTION_MASK} and ${MENTION_MASK}`],
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
      silent: [{
        member: "Maya Chen", mobile_phone: "+1 555 0100", work_phone: "+1 555 0101", cell: "555", whatsapp_number: "+49 1",
        skype: "maya.c", slackMemberId: "U0MAYA03", contact: "maya@acme", reach_me: "dm me", notes: "ask <@U0MAYA03>",
      }],
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

// Generated spellings: any prefix, channel and suffix, in any case and separator style, after ordinary words.
const ORDINARY_WORDS = ["owner", "assignee", "author", "lead", "team", "primary", "how to", "backup"];
const CHANNELS = ["email", "e mail", "mail", "phone", "telephone", "tel", "mobile", "cell", "whatsapp", "skype", "telegram", "slack", "discord", "contact", "reach me"];
const CHANNELS_WITH_SUFFIX = ["chat", "teams", "signal"];
const PREFIXES = ["work", "personal", "mobile", "home", "office", "private"];
const SUFFIXES = ["id", "handle", "number", "address", "url", "user id", "member id", "name", "account"];

const words = (options: string[]) => fc.constantFrom(...options).map((w) => w.split(" "));
const contactKeyWords = fc
  .tuple(
    fc.array(words(ORDINARY_WORDS), { maxLength: 2 }),
    fc.array(words(PREFIXES), { maxLength: 1 }),
    fc.oneof(
      fc.tuple(words(CHANNELS), fc.array(words(SUFFIXES), { maxLength: 2 })),
      fc.tuple(words(CHANNELS_WITH_SUFFIX), fc.array(words(SUFFIXES), { minLength: 1, maxLength: 2 })),
    ),
  )
  .map(([before, prefixes, [channel, suffixes]]) => [...before, ...prefixes, channel, ...suffixes].flat());

const capitalized = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
const SPELLINGS: Record<string, (ws: string[]) => string> = {
  snake: (ws) => ws.join("_"),
  kebab: (ws) => ws.join("-"),
  spaced: (ws) => ws.map(capitalized).join(" "),
  camel: (ws) => ws[0] + ws.slice(1).map(capitalized).join(""),
  pascal: (ws) => ws.map(capitalized).join(""),
  upperSnake: (ws) => ws.join("_").toUpperCase(),
  joined: (ws) => ws.join(""),
  fullWidth: (ws) => ws.join("_").replace(/[a-z_]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
};
const spelled = (arbitraryWords: fc.Arbitrary<string[]>) =>
  fc.tuple(arbitraryWords, fc.constantFrom(...Object.values(SPELLINGS))).map(([ws, spell]) => spell(ws));

// "joined" glues ordinary words onto the channel (ownerphone), which no rule can tell from a word: keep it to
// keys without ordinary words in front, as people write them (workphone, slackmemberid).
const contactKey = fc.oneof(
  spelled(contactKeyWords.filter((ws) => !ORDINARY_WORDS.some((o) => ws[0] === o.split(" ")[0]))),
  fc.tuple(contactKeyWords, fc.constantFrom(...Object.entries(SPELLINGS).filter(([n]) => n !== "joined").map(([, s]) => s))).map(([ws, spell]) => spell(ws)),
);

const LETTERS = ["a", "z", "M", "á", "ü", "ß", "п", "ё", "λ", "名", "ア", "9", "𝒶"];
const label = fc.array(fc.constantFrom(...LETTERS), { minLength: 1, maxLength: 6 }).map((cs) => cs.join(""));
const topLevelDomain = fc.constantFrom("example", "com", "co", "рф", "中国", "museum");
const email = fc
  .tuple(
    fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom(".", "_", "+", "-")).map(([ls, separator]) => ls.join(separator)),
    fc.constantFrom("@", "＠", "﹫"),
    fc.array(label, { minLength: 1, maxLength: 2 }),
    fc.constantFrom(".", "．"),
    topLevelDomain,
  )
  .map(([local, at, labels, dot, tld]) => `${local}${at}${labels.join(dot)}${dot}${tld}`);
const mention = fc.oneof(
  fc.stringMatching(/^[UW][A-Z0-9]{4,10}$/).map((id) => `<@${id}>`),
  fc.tuple(fc.stringMatching(/^W[A-Z0-9]{2,8}$/), fc.constantFrom("maya", "Maya Chen")).map(([id, name]) => `<@${id}|${name}>`),
  fc.stringMatching(/^S[A-Z0-9]{2,8}$/).map((id) => `<!subteam^${id}>`),
);

const NAMES = ["Maya Chen", "Dev Patel", "Ana", "Liam O'Brien", "Zoë Müller", "李雷"];
const ORDINARY_KEYS = ["name", "owner", "author", "assignee", "title", "notes", "member", "status", "telemetry", "cellular_network_kpi", "days_late", "mailing_list", "teams"];
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
      fc.property(fc.oneof(email, mention), ordinaryText, ordinaryText, (detail, before, after) => {
        const text = `${before} ${detail} ${after}`;
        const served = JSON.stringify(scrubContactDetails({ notes: text, [detail]: before }));
        expect(served).not.toContain(detail);
        expect(served).not.toMatch(/[@＠﹫]/);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps names and ordinary content exactly as they are", () => {
    const ordinaryContent = fc.dictionary(fc.constantFrom(...ORDINARY_KEYS), fc.oneof(ordinaryText, fc.integer(), fc.boolean(), fc.array(ordinaryText)));
    fc.assert(
      fc.property(fc.array(ordinaryContent, { maxLength: 4 }), ordinaryText, (items, headline) => {
        const content = { headline, blockers: items };
        expect(scrubContactDetails(content)).toEqual(content);
      }),
      { numRuns: 1000 },
    );
  });
});
