import { CONTACT_LINK_MASK, type ContactSpan } from "./contact-masks";

// Links that open a chat or a call with one person, or show the profile of someone on a service whose keys are
// contact keys (lib/data/contact-keys.ts): a number or handle in another form (wa.me/15550104477, t.me/mchen,
// skype:maya.chen?call, tel:, mailto:, x.com/mchen, linkedin.com/in/maya-chen, messenger.com/t/maya.chen). Masked
// whole, from the scheme or host (with any https:// and www. before it) up to the next space, quote or bracket,
// less the punctuation that ends a sentence after it. Links to pages (a repository, a meeting room, a document, a
// company's page on LinkedIn) are ordinary content and stay.
//
// Found from each `:` and `/` (the text is searched for them natively): the word before it is read back over
// at most a few dozen characters and looked up, so the cost is linear; after a link, the search goes on past it.

// URI schemes that dial, message or call an address (RFC 3966 tel:, RFC 6068 mailto:, and the apps' own).
const CONTACT_SCHEMES = new Set([
  "tel",
  "sms",
  "mms",
  "callto",
  "mailto",
  "skype",
  "facetime",
  "facetime-audio",
  "whatsapp",
  "tg",
  "viber",
  "xmpp",
  "sip",
  "sips",
  "im",
]);
// Hosts of chat and social services whose links lead straight to a person, with the paths that do so ("": any).
const PERSON_LINK_PATHS = new Map([
  ["wa.me", [""]],
  ["wa.link", [""]],
  ["api.whatsapp.com", ["send"]],
  ["t.me", [""]],
  ["telegram.me", [""]],
  ["telegram.dog", [""]],
  ["m.me", [""]],
  ["messenger.com", ["t/"]],
  ["signal.me", [""]],
  ["discord.com", ["users/"]],
  ["teams.microsoft.com", ["l/chat/"]],
  ["join.skype.com", ["invite/"]],
  ["x.com", [""]],
  ["twitter.com", [""]],
  ["linkedin.com", ["in/", "pub/"]],
  ["facebook.com", [""]],
  ["fb.com", [""]],
  ["fb.me", [""]],
  ["instagram.com", [""]],
  ["ig.me", [""]],
  ["threads.net", ["@"]],
  ["tiktok.com", ["@"]],
  ["bsky.app", ["profile/"]],
  ["snapchat.com", ["add/"]],
  ["line.me", ["ti/p/", "r/ti/p/"]],
  ["lin.ee", [""]],
  ["vk.com", [""]],
  ["vk.me", [""]],
  ["zalo.me", [""]],
  ["open.kakao.com", ["o/"]],
  ["u.wechat.com", [""]],
  ["invite.viber.com", [""]],
  ["keybase.io", [""]],
]);
// Services with subdomains of the same pages (m.facebook.com, mobile.twitter.com, uk.linkedin.com).
const SUBDOMAIN_HOSTS = new Set(["x.com", "twitter.com", "linkedin.com", "facebook.com", "instagram.com", "vk.com"]);
// Longer than any scheme, or host with "www." or a subdomain, in the tables above.
const LONGEST_NAME = 32;
// The last letters of the hosts: most slashes (in paths, dates, base64) are after none of them, and cost no more.
const HOST_LAST_CODES = new Set([...PERSON_LINK_PATHS.keys()].flatMap((host) => bothCases(host.slice(-1))));

/** Adds a span for every contact link in the text, in order. */
export function findContactLinks(text: string, spans: ContactSpan[]): void {
  let colon = text.indexOf(":");
  let slash = text.indexOf("/");
  while (colon !== -1 || slash !== -1) {
    const at = colon === -1 ? slash : slash === -1 ? colon : Math.min(colon, slash);
    const start = at === colon ? schemeLinkStart(text, colon) : hostLinkStart(text, slash);
    const end = start === -1 ? -1 : linkEnd(text, at + 1);
    const next = end > at + 1 ? end : at + 1;
    if (next > at + 1) spans.push({ start, end, mask: CONTACT_LINK_MASK });
    // Each is searched for again only once passed, so the text is searched once for each.
    if (colon !== -1 && colon < next) colon = text.indexOf(":", next);
    if (slash !== -1 && slash < next) slash = text.indexOf("/", next);
  }
}

/** Where the link starts whose scheme ends at the `:` at `colon`, or -1 when it is no contact scheme. */
function schemeLinkStart(text: string, colon: number): number {
  const start = nameStart(text, colon, isSchemeCode);
  return start !== -1 && CONTACT_SCHEMES.has(text.slice(start, colon).toLowerCase()) ? start : -1;
}

/** Where the link starts whose host ends at the `/` at `slash`, or -1 when it is no chat link. */
function hostLinkStart(text: string, slash: number): number {
  if (!HOST_LAST_CODES.has(text.charCodeAt(slash - 1))) return -1;
  let start = nameStart(text, slash, isHostCode);
  if (start === -1) return -1;
  const written = text
    .slice(start, slash)
    .toLowerCase()
    .replace(/^www\./, "");
  const parent = written.slice(written.indexOf(".") + 1);
  const host = PERSON_LINK_PATHS.has(written) || !SUBDOMAIN_HOSTS.has(parent) ? written : parent;
  const paths = PERSON_LINK_PATHS.get(host);
  const pathStart = text.slice(slash + 1, slash + 1 + LONGEST_PATH).toLowerCase();
  if (!paths?.some((path) => pathStart.startsWith(path))) return -1;
  for (const scheme of ["https://", "http://"]) {
    if (text.slice(Math.max(0, start - scheme.length), start).toLowerCase() === scheme) start -= scheme.length;
  }
  return start;
}

const LONGEST_PATH = 8;
const GLUING = /[\p{L}\p{N}._-]/u;

/**
 * The start of the name of `nameChars` that ends at `end`: not glued to a letter, digit or dot before it (so
 * `hotel:` is no `tel:` and `chat.wa.me` no `wa.me`), at most LONGEST_NAME long; -1 when there is none.
 */
function nameStart(text: string, end: number, isNameCode: (code: number) => boolean): number {
  let start = end;
  while (start > 0 && end - start <= LONGEST_NAME && isNameCode(text.charCodeAt(start - 1))) start--;
  if (start === end || end - start > LONGEST_NAME) return -1;
  return start > 0 && GLUING.test(text[start - 1]!) ? -1 : start;
}

function bothCases(char: string): number[] {
  return [char.toLowerCase().charCodeAt(0), char.toUpperCase().charCodeAt(0)];
}

function isLetterCode(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function isSchemeCode(code: number): boolean {
  return isLetterCode(code) || code === 0x2d;
}

function isHostCode(code: number): boolean {
  return isLetterCode(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e;
}

const LINK_END = /[\s<>"'`()[\]{}]/;
const SENTENCE_PUNCTUATION = /[.,;:!?]/;

/**
 * The end of a link's rest that starts at `from`: the next space, quote, or bracket it did not open, less closing
 * punctuation.
 */
function linkEnd(text: string, from: number): number {
  let end = from;
  // Brackets a link opens it also closes (tel:+44(20)79460958, a page's path); a closing one it did not open ends it.
  let open = 0;
  for (; end < text.length; end++) {
    const char = text[end]!;
    if (char === "(") open++;
    else if (char === ")" && open > 0) open--;
    else if (LINK_END.test(char)) break;
  }
  while (end > from && SENTENCE_PUNCTUATION.test(text[end - 1]!)) end--;
  return end;
}
