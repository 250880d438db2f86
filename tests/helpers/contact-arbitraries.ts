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
