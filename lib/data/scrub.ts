import { isContactKey } from "./contact-keys";
import { PHONE_MASK } from "./contact-masks";
import { isPhoneNumberValue } from "./contact-phones";
import { maskContactText } from "./contact-text";
import type { KnownContacts } from "./known-contact-matcher";

// Report content is free-form JSON written by people and tools, so contact details can hide anywhere in it.
// Everything leaving the service with report content passes through here: keys that name a contact channel
// are dropped with their values at any depth (lib/data/contact-keys.ts), e-mail addresses, chat mentions,
// contact links, phone numbers and the organization's own members' addresses and handles are masked in text
// and in the remaining keys (lib/data/contact-text.ts), which also loses its invisible and bidirectional-control
// characters (lib/data/invisible-characters.ts), and a number that is a phone number becomes the phone mask.
//
// Stored content can be nested as deep as the database accepts, so the walk keeps its own stack instead of
// recursing on the JavaScript one, and serves at most MAX_SERVED_DEPTH levels: anything deeper becomes a short
// marker, so every later step (JSON serialization, MCP rendering) gets bounded input.

/** How many levels of objects and arrays a response carries; the report content itself is level 1. */
export const MAX_SERVED_DEPTH = 64;
export const NESTED_TOO_DEEP = "[nested too deep]";

/** The value as it may leave the service: `known` holds the contact details of the organization it belongs to. */
export function scrubContactDetails<T>(value: T, known: KnownContacts): T {
  const root: { value?: unknown } = {};
  const pending: PendingValue[] = [{ value, level: 0, into: root, key: "value" }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    setOwn(next.into, next.key, scrubShallow(next.value, next.level, pending, known));
  }
  return root.value as T;
}

// Masking is a function of the text and the organization's matcher alone, and lists serve the same newest
// headlines over and over: short texts are kept with their masked form per matcher (a new matcher for every
// change of the contact details), and all are forgotten at once when MAX_KEPT_TEXTS are kept.
const MAX_KEPT_TEXTS = 10_000;
const MAX_KEPT_LENGTH = 256;
let kept = new Map<KnownContacts, Map<string, string>>();
let keptCount = 0;

function maskedText(text: string, known: KnownContacts): string {
  if (text.length > MAX_KEPT_LENGTH) return maskContactText(text, known);
  let texts = kept.get(known);
  const found = texts?.get(text);
  if (found !== undefined) return found;
  const masked = maskContactText(text, known);
  if (keptCount >= MAX_KEPT_TEXTS) {
    kept = new Map();
    keptCount = 0;
    texts = undefined;
  }
  if (!texts) kept.set(known, (texts = new Map()));
  texts.set(text, masked);
  keptCount++;
  return masked;
}

/** A value still to be scrubbed, and the slot of its already-built container it goes into. */
interface PendingValue {
  value: unknown;
  /** How many objects and arrays enclose it. */
  level: number;
  into: Record<string, unknown> | unknown[];
  key: string | number;
}

/** A string masked, a scalar as is, or a container's new shell whose members are queued on `pending`. */
function scrubShallow(value: unknown, level: number, pending: PendingValue[], known: KnownContacts): unknown {
  if (typeof value === "string") return maskedText(value, known);
  if (typeof value === "number") return isPhoneNumberValue(value) ? PHONE_MASK : value;
  if (value === null || typeof value !== "object") return value;
  if (level >= MAX_SERVED_DEPTH) return NESTED_TOO_DEEP;
  if (Array.isArray(value)) {
    const shell: unknown[] = new Array(value.length);
    value.forEach((item, index) => pending.push({ value: item, level: level + 1, into: shell, key: index }));
    return shell;
  }
  const shell: Record<string, unknown> = {};
  for (const [key, inner] of servedEntries(value, known)) {
    // Placed now so the members keep their order; filled when popped.
    setOwn(shell, key, null);
    pending.push({ value: inner, level: level + 1, into: shell, key });
  }
  return shell;
}

/**
 * The members to serve: contact keys left out, and keys that hold a contact detail (an e-mail used as a key)
 * masked, numbered where masking makes two of them equal: "[email hidden]", "[email hidden] (2)"…
 */
function servedEntries(object: object, known: KnownContacts): [string, unknown][] {
  const entries = Object.entries(object).filter(([key]) => !isContactKey(key));
  const served = entries.map(([key, inner]): [string, unknown] => [maskedText(key, known), inner]);
  if (served.every(([key], i) => key === entries[i][0])) return served;
  const taken = new Set(entries.map(([key]) => key));
  const nextNumber = new Map<string, number>();
  return served.map(([key, inner], i): [string, unknown] => {
    if (key === entries[i][0]) return [key, inner];
    let unique = key;
    for (let n = nextNumber.get(key) ?? 2; taken.has(unique); n++) {
      unique = `${key} (${n})`;
      nextNumber.set(key, n + 1);
    }
    taken.add(unique);
    return [unique, inner];
  });
}

/** Sets an own member, also one named __proto__ (which plain assignment would take for the prototype). */
function setOwn(into: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(into, key, { value, writable: true, enumerable: true, configurable: true });
  else (into as Record<string | number, unknown>)[key] = value;
}
