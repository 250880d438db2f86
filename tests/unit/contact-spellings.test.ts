import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isContactKey } from "@/lib/data/contact-keys";
import { CONTACT_LINK_MASK, EMAIL_MASK, HANDLE_MASK, PHONE_MASK } from "@/lib/data/contact-masks";
import { maskContactText } from "@/lib/data/contact-text";
import { knownContactMatcher, NO_KNOWN_CONTACTS } from "@/lib/data/known-contact-matcher";
import { scrubContactDetails } from "@/lib/data/scrub";
import { spelledAddress, spelledPhone, spells } from "../helpers/contact-arbitraries";

// Issue 34, "contact details still leave": every spelling the attacker's pass found served, one row each, beside
// ordinary report text that only looks alike and must stay as written; then generated spellings of known
// addresses and numbers, none of which may still spell the detail once served.

const mask = (text: string) => maskContactText(text, NO_KNOWN_CONTACTS);

describe("e-mail addresses in the finding's spellings", () => {
  it.each([
    // White space or a line break at the at-sign.
    ["write maya @ acme.example today", `write ${EMAIL_MASK} today`],
    ["write maya@ acme.example today", `write ${EMAIL_MASK} today`],
    ["write maya@\nacme.example today", `write ${EMAIL_MASK} today`],
    ["write maya\n@ acme.example today", `write ${EMAIL_MASK} today`],
    // White space before the at-sign only reads as a mention too: what follows is masked, the domain with it.
    ["write maya @acme.example today", `write maya ${HANDLE_MASK} today`],
    ["write maya\n@acme.example today", `write maya\n${HANDLE_MASK} today`],
    // Percent- and character-reference-encoded, also twice.
    ["write maya%40acme.example today", `write ${EMAIL_MASK} today`],
    ["write maya%2540acme.example today", `write ${EMAIL_MASK} today`],
    ["write maya&#64;acme.example today", `write ${EMAIL_MASK} today`],
    ["write maya&#x40;acme&#46;example today", `write ${EMAIL_MASK} today`],
    ["write maya&commat;acme&period;example today", `write ${EMAIL_MASK} today`],
    ["write %6D%61%79%61%40%61%63%6D%65%2E%65%78%61%6D%70%6C%65 today", `write ${EMAIL_MASK} today`],
    // Dots drawn like a full stop.
    ["write maya@acme\u2024example today", `write ${EMAIL_MASK} today`],
    ["write maya@acme\u00b7example today", `write ${EMAIL_MASK} today`],
    ["write maya@acme\uff65example today", `write ${EMAIL_MASK} today`],
    ["write maya@acme\u2e31example today", `write ${EMAIL_MASK} today`],
    ["write maya\u00b7chen@acme\u30fbexample today", `write ${EMAIL_MASK} today`],
    // Reversed inside a right-to-left override: displayed as maya@acme.example.
    ["write \u202eelpmaxe.emca@ayam\u202c today", `write ${EMAIL_MASK} today`],
    ["write \u202eelpmaxe.emca@ayam today", `write ${EMAIL_MASK} today`],
    // (at), [at], (dot).
    ["write maya(at)acme.example today", `write ${EMAIL_MASK} today`],
    ["write maya (at) acme (dot) example today", `write ${EMAIL_MASK} today`],
    ["write maya [AT] acme [dot] example today", `write ${EMAIL_MASK} today`],
    // Invisible characters inside the address.
    ["write ma\u200bya@ac\u{e0041}me.exa\u00admple today", `write ${EMAIL_MASK} today`],
  ])("%j is served as %j", (text, served) => expect(mask(text)).toBe(served));
});

describe("phone numbers in the finding's spellings", () => {
  it.each([
    ["call 0044 20 7946 0958 today", `call ${PHONE_MASK} today`],
    ["call 00 44 20 7946 0958 today", `call ${PHONE_MASK} today`],
    ["call 0049 151 1234 5678 today", `call ${PHONE_MASK} today`],
    ["call 011 44 20 7946 0958 today", `call ${PHONE_MASK} today`],
    ["call 011-49-151-1234-5678 today", `call ${PHONE_MASK} today`],
    ["call 011\u202f44\u202f20\u202f7946\u202f0958 today", `call ${PHONE_MASK} today`],
    ["call +44\u202f20\u202f7946\u202f0958 today", `call ${PHONE_MASK} today`],
    ["call +44\u200920\u20097946\u20090958 today", `call ${PHONE_MASK} today`],
    ["call +1\u2007202\u2007555\u20070143 today", `call ${PHONE_MASK} today`],
    ["call (202)\u202f555\u20110143 today".replace("\u2011", "-"), `call ${PHONE_MASK} today`],
    ["call tel%3A%2B15550104477 today", `call ${CONTACT_LINK_MASK} today`],
    ["call tel%3a+442079460958 today", `call ${CONTACT_LINK_MASK} today`],
    ["call %2B44 20 7946 0958 today", `call ${PHONE_MASK} today`],
    ["call +44 20\u200b7946\u200b0958 today", `call ${PHONE_MASK} today`],
    ["call 555\u00b7010\u00b74477 today", `call ${PHONE_MASK} today`],
    // In a list: the finder reads on past a number into ", 0…", which must not make it part of something else.
    ["call +44 (20) 7946 0958, 011 44 20 7946 0958", `call ${PHONE_MASK}, ${PHONE_MASK}`],
    ["call tel:+44(20)79460958 or (tel:+15550104477)", `call ${CONTACT_LINK_MASK} or (${CONTACT_LINK_MASK})`],
    // A long German number read on into the next number's 011 exit, and digits after that one (found by CI's
    // property run: the 011 number was served).
    ["call +49 151 1234 5678 011 1 (202) 555 0143 8765 4321", `call ${PHONE_MASK} 8765 4321`],
  ])("%j is served as %j", (text, served) => expect(mask(text)).toBe(served));

  it("masks a JSON number that is a phone number, and keeps numbers that are not", () => {
    const content = {
      headline: "Numbers",
      kpi_status: [
        { name: "callback", value: 12025550143 },
        { name: "uk", value: 442079460958 },
        { name: "de", value: 4915112345678 },
        { name: "national", value: 2025550143 },
        { name: "revenue", value: 1250000 },
        { name: "revenue_cents", value: 2010000000 },
        { name: "epoch", value: 1764547200 },
        { name: "epoch_ms", value: 1764547200123 },
        { name: "order", value: 1234567890 },
        { name: "ratio", value: 99.95 },
        { name: "big", value: 9007199254740991 },
      ],
    };
    const served = scrubContactDetails(content, NO_KNOWN_CONTACTS) as typeof content;
    expect(served.kpi_status.map((kpi) => kpi.value)).toEqual([
      PHONE_MASK,
      PHONE_MASK,
      PHONE_MASK,
      PHONE_MASK,
      1250000,
      2010000000,
      1764547200,
      1764547200123,
      1234567890,
      99.95,
      9007199254740991,
    ]);
  });
});

describe("profile links of channels whose keys are dropped", () => {
  it.each([
    ["see x.com/mayachen", `see ${CONTACT_LINK_MASK}`],
    ["see https://twitter.com/mayachen.", `see ${CONTACT_LINK_MASK}.`],
    ["see https://mobile.twitter.com/mayachen", `see ${CONTACT_LINK_MASK}`],
    ["see https://www.linkedin.com/in/maya-chen-123/", `see ${CONTACT_LINK_MASK}`],
    ["see uk.linkedin.com/in/maya-chen", `see ${CONTACT_LINK_MASK}`],
    ["see wa.link/ab12cd", `see ${CONTACT_LINK_MASK}`],
    ["see https://www.messenger.com/t/maya.chen", `see ${CONTACT_LINK_MASK}`],
    ["see instagram.com/maya.chen and facebook.com/maya.chen", `see ${CONTACT_LINK_MASK} and ${CONTACT_LINK_MASK}`],
    ["see https://bsky.app/profile/maya.bsky.social", `see ${CONTACT_LINK_MASK}`],
    ["see tiktok.com/@mayachen", `see ${CONTACT_LINK_MASK}`],
    ["see https://line.me/ti/p/abc123", `see ${CONTACT_LINK_MASK}`],
    ["see x%2Ecom%2Fmayachen", `see ${CONTACT_LINK_MASK}`],
  ])("%j is served as %j", (text, served) => expect(mask(text)).toBe(served));
});

describe("ordinary report text that looks alike", () => {
  it.each([
    "Released 1.2.3, then v16.0.1 and next@16.0.1; @types/node@20.19 pinned",
    "Shipped on 2026-11-21 at 17:30, due 21.11.2026, in Q3 2026",
    "Revenue $1,250,000.00 (€1.150.000,50), churn 2.5%, NPS 61, uptime 99.95%",
    "Closed JIRA-1234, #4521 and PR #987; order 1234567890 shipped; invoice INV2025550143",
    "Ticket 2026-0001-4477 reopened; build 20261121.3 green; ids 1001 1002 1003 1004",
    "KPI 12,345,678 of 20,000,000; 3 of 4 done (75%)",
    "Docs at docs/Getting%20Started.md and search?q=a%20b; R&D and AT&T & Co.; 100% done",
    "Meet @ 5pm; latency @ p99 is 120ms; ping @maya about it",
    "Look (at) this later; deploy (dot) notes; [at] risk",
    "Repository github.com/acme/robot, company page linkedin.com/company/acme, docs x.example.com/guide",
    "The gripper·arm module, Paris·London route, 5·3 = 15",
    "Team 👩‍💻 shipped ❤️; فارسی‌زبان; अक्‍षर",
    "line 42 of main.ts, lines 10-20; phone_model Pixel 9",
  ])("%j is served as written", (text) => expect(mask(text)).toBe(text));
});

describe("contact keys of the finding's family", () => {
  // The 46 contact-like keys the attacker's pass tried: 11 were dropped before issue 34, 35 were served.
  const FAMILY = [
    // dropped before
    "email",
    "phone",
    "mobile_phone",
    "whatsapp",
    "skype_name",
    "telegram",
    "slack_id",
    "tel",
    "fax",
    "handy",
    "telefono",
    // served before
    "phones",
    "emails",
    "e-mails",
    "faxes",
    "msisdn",
    "Telefonnummer",
    "Handynummer",
    "Mobilnummer",
    "Rufnummer",
    "E-Mail-Adresse",
    "celular",
    "cellulare",
    "telefone",
    "telefoonnummer",
    "téléphone_portable",
    "contacto",
    "телефон",
    "номер_телефона",
    "электронная_почта",
    "τηλέφωνο",
    "هاتف",
    "電話",
    "電話番号",
    "携帯電話",
    "メール",
    "メールアドレス",
    "邮箱",
    "手机号",
    "微信",
    "전화번호",
    "이메일",
    "tg",
    "x_handle",
    "line_id",
    "ig_handle",
  ];

  it("has 46 members", () => expect(new Set(FAMILY).size).toBe(46));
  it.each(FAMILY)("%s is a contact key", (key) => expect(isContactKey(key)).toBe(true));

  it.each([
    "line_number",
    "line_items",
    "production_line_id",
    "pipeline_id",
    "timeline",
    "emails_sent",
    "phone_model",
    "x",
    "max_handle",
    "电话数",
    "メール送信数",
    "portable",
    "deadline",
    "online_users",
    "automobil",
  ])("%s is not a contact key", (key) => expect(isContactKey(key)).toBe(false));
});

describe("the organization's own details in those spellings", () => {
  // A sign-in address on an internal domain (no pattern takes "intranet" for one) and a chat handle.
  const known = knownContactMatcher({ emails: ["ana@intranet"], handles: ["@mchen"] });
  it.each([
    ["ask ana@intranet", `ask ${EMAIL_MASK}`],
    ["ask ana (at) intranet", `ask ${EMAIL_MASK}`],
    ["ask ana @ intranet", `ask ${EMAIL_MASK}`],
    ["ask ana%40intranet", `ask ${EMAIL_MASK}`],
    ["ask ana&#64;intranet", `ask ${EMAIL_MASK}`],
    ["ask \u202etenartni@ana\u202c", `ask ${EMAIL_MASK}`],
    ["ping %40mchen and &#64;mchen", `ping ${HANDLE_MASK} and ${HANDLE_MASK}`],
    ["ping @m\u{e0041}chen and \u202enehcm@\u202c", `ping ${HANDLE_MASK} and ${HANDLE_MASK}`],
  ])("%j is served as %j", (text, served) => expect(maskContactText(text, known)).toBe(served));
});

// Ordinary words around a detail: no digits (the phone check reads every digit) and no at-sign.
const around = fc.constantFrom("", "write ", "Call ", "ask Maya Chen on ", "(", "\n", "see: ");
const after = fc.constantFrom("", " today", ".", ", thanks", ")", "\nnext line", " 2026-11-21", " 7");

describe("generated spellings of known details", () => {
  const ADDRESS = "maya.chen@acme.example";
  const known = knownContactMatcher({ emails: [ADDRESS, "ana@intranet"], handles: ["@mchen"] });
  const PHONES: [string, string[], string][] = [
    ["44", ["20", "7946", "0958"], "2079460958"],
    ["1", ["202", "555", "0143"], "2025550143"],
    ["49", ["151", "1234", "5678"], "15112345678"],
  ];

  it.each([ADDRESS, "ana@intranet"])("no spelling of %s survives, in text or as a key", (address) => {
    fc.assert(
      fc.property(around, spelledAddress(address), after, (before, spelled, end) => {
        const text = `${before}${spelled}${end}`;
        const served = JSON.stringify(scrubContactDetails({ notes: text, [text]: 1 }, known));
        expect(spells(served, address), served).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it("no spelling survives among others written one after another", () => {
    const anyDetail = fc.oneof(
      spelledAddress(ADDRESS),
      ...PHONES.map(([countryCode, groups]) => spelledPhone(countryCode, groups)),
    );
    fc.assert(
      fc.property(
        fc.array(anyDetail, { minLength: 2, maxLength: 8 }),
        fc.constantFrom(" ", ", ", " or ", "\n", "; "),
        (details, separator) => {
          const served = JSON.stringify(scrubContactDetails({ notes: details.join(separator) }, known));
          for (const detail of [ADDRESS, ...PHONES.map(([, , national]) => national)]) {
            expect(spells(served, detail), served).toBe(false);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it.each(PHONES)("no spelling of +%s %j survives", (countryCode, groups, national) => {
    fc.assert(
      fc.property(around, spelledPhone(countryCode, groups), after, (before, spelled, end) => {
        const served = JSON.stringify(scrubContactDetails({ notes: `${before}${spelled}${end}` }, known));
        expect(spells(served, national), served).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });
});
