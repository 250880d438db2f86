import { escapeInvisibles } from "./invisible-characters";

// Error messages name what was wrong, and sometimes quote what was sent so the caller can find it: an unknown
// parameter, a key in an import file. They reach terminals, logs and models, so a value is never quoted whole:
// at most a bounded excerpt, with its invisible, bidirectional-control and control characters written as escapes
// so that it shows what it holds and cannot act on what displays it.

/** The most characters of a value a message quotes. */
export const EXCERPT_MAX = 40;
/** The most characters of a message put together elsewhere (the MCP SDK's) that may quote what was sent. */
export const MESSAGE_MAX = 300;

/** `value` quoted as a JSON string, cut at `max` characters ("…" after the closing quote says so), escaped. */
export function inputExcerpt(value: string, max: number = EXCERPT_MAX): string {
  // Enough UTF-16 units for max + 1 characters, so that a longer value is known to be cut.
  const characters = Array.from(value.slice(0, 2 * max + 2));
  const cut = characters.length > max;
  return `${escapeInvisibles(JSON.stringify(characters.slice(0, max).join("")))}${cut ? "…" : ""}`;
}

/** A message that may quote what was sent, escaped as inputExcerpt escapes and cut at MESSAGE_MAX characters. */
export function boundedMessage(message: string): string {
  const escaped = escapeInvisibles(message.length > 2 * MESSAGE_MAX ? message.slice(0, 2 * MESSAGE_MAX) : message);
  return escaped.length > MESSAGE_MAX ? `${escaped.slice(0, MESSAGE_MAX - 1)}…` : escaped;
}
