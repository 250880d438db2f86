import { foldLookAlikes } from "./contact-fold";

// Which object keys in report content name a contact channel, so that their values (addresses, numbers,
// handles, ids) are never served. A key is split into words (snake, kebab, camel, spaced, full-width, accented
// or spelled with look-alike letters of another script, all alike; in scripts written without spaces, Chinese,
// Japanese and Korean, each character is a word), and it is a contact key when its last words, joined, read as
//   [prefixes] channel [suffixes]     e.g. work_phone, mobilePhoneNumber, whatsapp_number, slackMemberId, 電話番号
// whatever words come before them (assignee_email, how_to_reach_me). Whole words only: `telemetry` is not
// `tel`, `cellular_network_kpi` is not `cell`, `email_count` and `hotel` are ordinary data.
//
// Channels and suffixes are written as regular expressions over lower-case ASCII, or, in other scripts, as the
// words themselves (normalized below as keys are).

// Channels that are contact keys on their own.
const CHANNELS = [
  "e?mails?",
  "phones?",
  "telephones?",
  "tel",
  "mobiles?",
  "mobil",
  "cell",
  "cellphones?",
  "celular",
  "cellulare",
  "landlines?",
  "fax(?:es)?",
  "pagers?",
  "msisdn",
  "sms",
  "whatsapp",
  "skype",
  "telegram",
  "slack",
  "discord",
  "wechat",
  "weixin",
  "viber",
  "imessage",
  "facetime",
  "threema",
  "kakao(?:talk)?",
  "jabber",
  "xmpp",
  "icq",
  "hangouts",
  "mattermost",
  "telefono",
  "telefone",
  "telefon",
  "telefoon",
  "rufnummer",
  "festnetz",
  "mobiel",
  "correo(?:electronico)?",
  "courriel",
  "handy",
  "zalo",
  "keybase",
  "tiktok",
  "snapchat",
  "msteams",
  "twitter",
  "linkedin",
  "instagram",
  "facebook",
  "mastodon",
  "bluesky",
  "movil",
  "contacts?",
  "contactos?",
  "contatos?",
  "kontakt",
  "reachme",
];
// The same in scripts ASCII does not cover: Russian, Greek, Arabic, Hebrew, Japanese, Chinese and Korean words for
// telephone, mobile, mail, e-mail, contact and the apps people there reach each other on.
const CHANNEL_WORDS = [
  "телефон",
  "телефона",
  "телефоны",
  "мобильный",
  "мобильного",
  "почта",
  "почты",
  "емейл",
  "имейл",
  "телеграм",
  "τηλέφωνο",
  "κινητό",
  "هاتف",
  "جوال",
  "بريد",
  "טלפון",
  "נייד",
  "電話",
  "携帯",
  "メール",
  "連絡先",
  "电话",
  "手机",
  "手機",
  "邮箱",
  "郵箱",
  "邮件",
  "郵件",
  "微信",
  "联系方式",
  "聯絡方式",
  "전화",
  "휴대폰",
  "핸드폰",
  "이메일",
  "메일",
  "연락처",
  "카카오톡",
];
// Words that are ordinary on their own (a team list, a KPI's signal) and name a channel only with a suffix.
const CHANNELS_WITH_SUFFIX = ["chat", "teams", "signal", "matrix", "sip"];
// Services whose links are ordinary data (a repository, a meeting) and whose account names a person: contact
// keys only with a suffix that names the account (github_username, zoom_id; not github_url, zoom_link).
const ACCOUNT_CHANNELS = ["github", "gitlab", "zoom"];
// Short forms (ph, mob, wa for WhatsApp, im for instant messages, tg for Telegram) that are contact keys only when
// they make up the whole key with prefixes and suffixes (ph, work_ph, mob_no): after other words they are ordinary
// data more often than not (soil_ph, flash_mob).
const SHORT_CHANNELS = ["ph", "mob", "wa", "im", "tg"];
// Short names of services that are words or letters of their own (x, line, fb, ig, vk, qq): a contact key with
// a suffix that names an account anywhere (author_x_handle, line_username), and with an id only as the whole key
// (line_id, tg_id; not production_line_id, and never line_number).
const SHORT_ACCOUNT_CHANNELS = ["x", "line", "fb", "ig", "vk", "qq", "tg", "kik"];
const PREFIXES = [
  "work",
  "personal",
  "private",
  "home",
  "office",
  "business",
  "mobile",
  "cell",
  "mobil",
  "primary",
  "secondary",
  "alt",
  "alternate",
  "alternative",
  "other",
  "backup",
  "direct",
  "main",
  "preferred",
  "emergency",
  "public",
  "contact",
];
const SUFFIXES = [
  "ids?",
  "identifier",
  "handles?",
  "user",
  "username",
  "userid",
  "member",
  "memberid",
  "name",
  "numbers?",
  "num",
  "no",
  "nr",
  "address(?:es)?",
  "addr",
  "url",
  "uri",
  "links?",
  "accounts?",
  "acct",
  "tag",
  "info",
  "information",
  "details?",
  "dm",
  "mention",
  "profile",
  "ext",
  "extension",
  "nummer",
  "numero",
  "numer",
  "adresse",
  "adres",
  "portable",
  "[0-9]+",
];
// In the scripts of CHANNEL_WORDS: number, address.
const SUFFIX_WORDS = ["番号", "号码", "號碼", "号", "號", "번호", "アドレス", "地址", "주소", "номер", "адрес"];

// Suffixes that name a person's account on a service, whatever else the service's name means.
const PERSONAL_ACCOUNT_SUFFIXES = ["handles?", "username", "userid", "accounts?", "acct", "profile"];
const ACCOUNT_SUFFIXES = ["ids?", "identifier", "user", ...PERSONAL_ACCOUNT_SUFFIXES];

/** The key's words in lower case: "slackMemberId", "slack_member_id", "Slack Member-ID" → slack, member, id. */
function keyWords(key: string): string[] {
  const split = key
    .normalize("NFKC") // full-width letters become ASCII…
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .replace(/(\p{L})(\p{N})/gu, "$1 $2")
    .replace(/(\p{N})(\p{L})/gu, "$1 $2")
    .toLowerCase();
  // …look-alikes (Cyrillic е in еmail) become their prototypes once in lower case (the data maps Т and т apart)…
  return foldLookAlikes(split)
    .toLowerCase()
    .normalize("NFKD") // …accents come apart from their letters…
    .replace(/\p{M}/gu, "") // …and are dropped
    .replace(UNSPACED_SCRIPT_CHAR, " $& ")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

// Characters of scripts written without spaces between words, each taken for a word of its own.
const UNSPACED_SCRIPT_CHAR = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/gu;

/** Words of another script as a pattern of keyWords' joined words. */
const spelled = (words: string[]) =>
  words.map((word) =>
    keyWords(word)
      .join("")
      .replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
  );

const any = (words: string[]) => `(?:${words.join("|")})`;
const prefixes = `${any(PREFIXES)}*`;
const channels = any([...CHANNELS, ...spelled(CHANNEL_WORDS)]);
const suffixes = any([...SUFFIXES, ...spelled(SUFFIX_WORDS)]);
// Anything ending in "email" (workemail, owneremail) too: no ordinary word does.
const CONTACT_WORDS = new RegExp(
  `^(?:(?:[a-z]*email|${prefixes}${channels})${suffixes}*` +
    `|${prefixes}${any(CHANNELS_WITH_SUFFIX)}${suffixes}+` +
    `|${prefixes}${any(ACCOUNT_CHANNELS)}${any(ACCOUNT_SUFFIXES)}+` +
    `|${prefixes}${any(SHORT_ACCOUNT_CHANNELS)}${any(PERSONAL_ACCOUNT_SUFFIXES)}+)$`,
);
const WHOLE_KEY_CONTACT_WORDS = new RegExp(
  `^${prefixes}(?:${any(SHORT_CHANNELS)}${suffixes}*|${any(SHORT_ACCOUNT_CHANNELS)}${any(ACCOUNT_SUFFIXES)}+)$`,
);
// Longer than any prefixes + channel + suffixes a person writes; also keeps each test on a bounded string.
const LONGEST_CONTACT_WORDS = 48;

/**
 * Each key's verdict once worked out: what is served repeats a few dozen keys (`owner`, `text`, `member_id`…)
 * thousands of times, and folding a key into words costs far more than a lookup. Bounded: report content may bring
 * keys of its own.
 */
const verdicts = new Map<string, boolean>();
const VERDICTS_MAX = 10_000;

export function isContactKey(key: string): boolean {
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  const verdict = judgeKey(key);
  if (verdicts.size >= VERDICTS_MAX) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

function judgeKey(key: string): boolean {
  const words = keyWords(key);
  let tail = "";
  for (let i = words.length - 1; i >= 0; i--) {
    tail = words[i] + tail;
    if (tail.length > LONGEST_CONTACT_WORDS) return false;
    if (CONTACT_WORDS.test(tail)) return true;
  }
  return WHOLE_KEY_CONTACT_WORDS.test(tail);
}
