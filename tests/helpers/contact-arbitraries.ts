import { decodeHTML } from "entities";
import fc from "fast-check";

// fast-check generators of contact details as people and tools write them, for the scrubbing tests.

// Generated spellings: any prefix, channel and suffix, in any case and separator style, after ordinary words.
const ORDINARY_WORDS = ["owner", "assignee", "author", "lead", "team", "primary", "how to", "backup"];
const CHANNELS = [
  "email",
  "e mail",
  "mail",
  "phone",
  "telephone",
  "tel",
  "mobile",
  "cell",
  "whatsapp",
  "skype",
  "telegram",
  "slack",
  "discord",
  "contact",
  "reach me",
];
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
export const contactKey = fc.oneof(
  spelled(contactKeyWords.filter((ws) => !ORDINARY_WORDS.some((o) => ws[0] === o.split(" ")[0]))),
  fc
    .tuple(
      contactKeyWords,
      fc.constantFrom(
        ...Object.entries(SPELLINGS)
          .filter(([n]) => n !== "joined")
          .map(([, s]) => s),
      ),
    )
    .map(([ws, spell]) => spell(ws)),
);

const LETTERS = ["a", "z", "M", "á", "ü", "ß", "п", "ё", "λ", "名", "ア", "9", "𝒶"];
const label = fc.array(fc.constantFrom(...LETTERS), { minLength: 1, maxLength: 6 }).map((cs) => cs.join(""));
const anyLocalPart = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom(".", "_", "+", "-"))
  .map(([labels, separator]) => labels.join(separator));
const topLevelDomain = fc.constantFrom("example", "com", "co", "рф", "中国", "museum");
export const email = (localPart: fc.Arbitrary<string> = anyLocalPart) =>
  fc
    .tuple(
      localPart,
      fc.constantFrom("@", "＠", "﹫"),
      fc.array(label, { minLength: 1, maxLength: 2 }),
      fc.constantFrom(".", "．"),
      topLevelDomain,
    )
    .map(([local, at, labels, dot, tld]) => `${local}${at}${labels.join(dot)}${dot}${tld}`);
export const mention = fc.oneof(
  fc.stringMatching(/^[UW][A-Z0-9]{4,10}$/).map((id) => `<@${id}>`),
  fc
    .tuple(fc.stringMatching(/^W[A-Z0-9]{2,8}$/), fc.constantFrom("maya", "Maya Chen"))
    .map(([id, name]) => `<@${id}|${name}>`),
  fc.stringMatching(/^S[A-Z0-9]{2,8}$/).map((id) => `<!subteam^${id}>`),
);

// ---- Spellings of one contact detail (issue 34) ----
// Each spells a given address or number the ways the attacker's pass found served: encoded (percent, HTML
// character references, twice), with white space or a bracketed word at the at-sign, dots drawn like a full stop,
// invisible characters slipped in, displayed reversed inside a right-to-left override, a phone number with a 00 or
// 011 exit, typographic spaces, or as a tel: link. `readsAs` and `digitsOf` undo all of it for the assertions, written
// here independently of the scrubber's own reading.

const AT_SPELLINGS = [
  "@",
  "＠",
  "﹫",
  " @ ",
  "@ ",
  " @",
  "  @\t",
  "@\n",
  "\n@ ",
  "(at)",
  " (at) ",
  "[at]",
  " [AT] ",
  "{at}",
  "%40",
  "%2540",
  "&#64;",
  "&#x40;",
  "&commat;",
  "&amp;#64;",
];
const DOT_SPELLINGS = [
  ".",
  "．",
  "。",
  "\u2024",
  "\u00b7",
  "\uff65",
  "\u2e31",
  "\u30fb",
  " (dot) ",
  "[dot]",
  "%2E",
  "&#46;",
  "&period;",
];
export const INVISIBLE_CHARACTERS = [
  "\u200b",
  "\u200c",
  "\u200d",
  "\u2060",
  "\u00ad",
  "\ufeff",
  "\u{e0041}",
  "\u{e0020}",
  "\u202a",
  "\u2066",
  "\u180e",
  "\u061c",
];

const percentEncoded = (text: string) =>
  [...new TextEncoder().encode(text)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
const entityEncoded = (text: string) => [...text].map((char) => `&#${char.codePointAt(0)};`).join("");
const reversedInOverride = (text: string) => `\u202e${[...text].reverse().join("")}\u202c`;

/** Invisible characters slipped in between the characters of `text` at generated places. */
const withInvisibles = (text: fc.Arbitrary<string>) =>
  fc
    .tuple(text, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...INVISIBLE_CHARACTERS)), { minLength: 1, maxLength: 3 }))
    .map(([t, insertions]) => {
      const chars = [...t];
      for (const [at, char] of insertions) chars.splice(1 + (at % Math.max(1, chars.length - 1)), 0, char);
      return chars.join("");
    });

const wholeEncodings = <T extends string>(spelled: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 6, arbitrary: spelled },
    { weight: 1, arbitrary: spelled.map(percentEncoded) },
    { weight: 1, arbitrary: spelled.map(entityEncoded) },
    { weight: 1, arbitrary: spelled.map(reversedInOverride) },
    { weight: 1, arbitrary: withInvisibles(spelled) },
  );

/** Spellings of an ASCII e-mail address (local@domain.tld). */
export function spelledAddress(address: string): fc.Arbitrary<string> {
  const [local, domain] = address.split("@") as [string, string];
  const spelled = fc
    .tuple(
      fc.constantFrom(...AT_SPELLINGS),
      fc.array(fc.constantFrom(...DOT_SPELLINGS), { minLength: 8, maxLength: 8 }),
      fc.constantFrom(
        (t: string) => t,
        (t: string) => t.toUpperCase(),
      ),
    )
    .map(([at, dots, casing]) => {
      let n = 0;
      return casing(`${local}${at}${domain.replace(/\./g, () => dots[n++ % dots.length]!)}`);
    });
  return wholeEncodings(spelled);
}

/** Spellings of a phone number: its country code, and its national number in groups. */
export function spelledPhone(countryCode: string, groups: string[]): fc.Arbitrary<string> {
  const spelled = fc
    .tuple(
      fc.constantFrom("+", "＋", "00", "011 ", "%2B", "&#43;", "+ "),
      fc.constantFrom(" ", "-", ".", "\u202f", "\u2009", "\u00a0", "\u2007", "\u3000", ""),
      fc.boolean(),
      fc.constantFrom("", "tel:", "tel%3A", "tel%3a", "callto:"),
    )
    .map(([exit, separator, bracketed, scheme]) => {
      const [first, ...rest] = groups;
      const national = [bracketed ? `(${first})` : first, ...rest].join(separator);
      return `${scheme}${exit}${countryCode}${separator || ""}${national}`;
    })
    // A tel: link is written without spaces.
    .filter((text) => !/^(tel|callto)/.test(text) || !/\s/.test(text));
  return wholeEncodings(spelled);
}

const LOOK_ALIKE_DOTS = /[\u2024\u00b7\uff65\u2e31\u30fb\u3002\uff61\uff0e\ufe52]/g;

/**
 * The text as a person would read it, for asserting that nothing in it still spells a detail: decoded (percent,
 * character references, three times), invisible and control characters removed, compatibility forms composed,
 * bracketed at and dot made signs, look-alike dots made dots, white space removed, lower case.
 */
function readsAs(text: string): string {
  let read = text;
  for (let round = 0; round < 3; round++) {
    read = decodeHTML(read.replace(/(%[0-9a-f]{2})+/gi, (run) => decodePercentRun(run)));
  }
  return read
    .replace(/[\p{Default_Ignorable_Code_Point}\p{Cc}]/gu, "")
    .normalize("NFKC")
    .replace(/[([{<]\s*at\s*[)\]}>]/gi, "@")
    .replace(/[([{<]\s*dot\s*[)\]}>]/gi, ".")
    .replace(LOOK_ALIKE_DOTS, ".")
    .replace(/\s+/g, "")
    .toLowerCase();
}

function decodePercentRun(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    return run;
  }
}

/** Whether `text`, read as a person reads it (either way round), spells `detail` (an address, or a number's digits). */
export function spells(text: string, detail: string): boolean {
  const read = readsAs(text);
  const reversed = [...read].reverse().join("");
  if (/^[0-9]+$/.test(detail)) return digitsOf(read).includes(detail) || digitsOf(reversed).includes(detail);
  return read.includes(detail.toLowerCase()) || reversed.includes(detail.toLowerCase());
}

/** Every digit of the text in order, whatever stands between them except letters (which end a number). */
function digitsOf(text: string): string {
  return text
    .split(/\p{L}+/u)
    .map((part) => part.replace(/[^0-9]/g, ""))
    .join(" ");
}
