import { foldLookAlikes } from "./contact-fold";

// Which object keys in report content name a contact channel, so that their values (addresses, numbers,
// handles, ids) are never served. A key is split into words (snake, kebab, camel, spaced, full-width, accented
// or spelled with look-alike letters of another script, all alike), and it is a contact key when its last
// words, joined, read as
//   [prefixes] channel [suffixes]     e.g. work_phone, mobilePhoneNumber, whatsapp_number, slackMemberId
// whatever words come before them (assignee_email, how_to_reach_me). Whole words only: `telemetry` is not
// `tel`, `cellular_network_kpi` is not `cell`, `email_count` and `hotel` are ordinary data.

// Channels that are contact keys on their own.
const CHANNELS = [
  "e?mail",
  "phone",
  "telephone",
  "tel",
  "mobile",
  "cell",
  "landline",
  "fax",
  "pager",
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
  "telefon",
  "correo(?:electronico)?",
  "courriel",
  "handy",
  "msteams",
  "twitter",
  "linkedin",
  "instagram",
  "facebook",
  "mastodon",
  "bluesky",
  "movil",
  "contacts?",
  "reachme",
];
// Words that are ordinary on their own (a team list, a KPI's signal) and name a channel only with a suffix.
const CHANNELS_WITH_SUFFIX = ["chat", "teams", "signal", "matrix"];
// Services whose links are ordinary data (a repository, a meeting) and whose account names a person: contact
// keys only with a suffix that names the account (github_username, zoom_id; not github_url, zoom_link).
const ACCOUNT_CHANNELS = ["github", "gitlab", "zoom"];
// Short forms (ph, mob, wa for WhatsApp, im for instant messages) that are contact keys only when they make up
// the whole key with prefixes and suffixes (ph, work_ph, mob_no): after other words they are ordinary data
// more often than not (soil_ph, flash_mob).
const SHORT_CHANNELS = ["ph", "mob", "wa", "im"];
const PREFIXES = [
  "work",
  "personal",
  "private",
  "home",
  "office",
  "business",
  "mobile",
  "cell",
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
  "[0-9]+",
];

const ACCOUNT_SUFFIXES = [
  "ids?",
  "identifier",
  "handles?",
  "user",
  "username",
  "userid",
  "accounts?",
  "acct",
  "profile",
];

const any = (words: string[]) => `(?:${words.join("|")})`;
// Anything ending in "email" (workemail, owneremail) too: no ordinary word does.
const CONTACT_WORDS = new RegExp(
  `^(?:(?:[a-z]*email|${any(PREFIXES)}*${any(CHANNELS)})${any(SUFFIXES)}*` +
    `|${any(PREFIXES)}*${any(CHANNELS_WITH_SUFFIX)}${any(SUFFIXES)}+` +
    `|${any(PREFIXES)}*${any(ACCOUNT_CHANNELS)}${any(ACCOUNT_SUFFIXES)}+)$`,
);
const WHOLE_KEY_CONTACT_WORDS = new RegExp(`^${any(PREFIXES)}*${any(SHORT_CHANNELS)}${any(SUFFIXES)}*$`);
// Longer than any prefixes + channel + suffixes a person writes; also keeps each test on a bounded string.
const LONGEST_CONTACT_WORDS = 48;

/** The key's words in lower case: "slackMemberId", "slack_member_id", "Slack Member-ID" → slack, member, id. */
function keyWords(key: string): string[] {
  return foldLookAlikes(key) // full-width letters and look-alikes (Cyrillic е in еmail) become ASCII…
    .normalize("NFKD") // …accents come apart from their letters…
    .replace(/\p{M}/gu, "") // …and are dropped
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .replace(/(\p{L})(\p{N})/gu, "$1 $2")
    .replace(/(\p{N})(\p{L})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export function isContactKey(key: string): boolean {
  const words = keyWords(key);
  let tail = "";
  for (let i = words.length - 1; i >= 0; i--) {
    tail = words[i] + tail;
    if (tail.length > LONGEST_CONTACT_WORDS) return false;
    if (CONTACT_WORDS.test(tail)) return true;
  }
  return WHOLE_KEY_CONTACT_WORDS.test(tail);
}
