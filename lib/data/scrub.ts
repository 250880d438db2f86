import { maskContactText } from "./contact-text";

// Report content is free-form JSON written by people and tools, so contact details can hide anywhere in it.
// Everything leaving the service passes through here: keys that name contact details are dropped at any depth,
// and e-mail addresses inside text are masked.
//
// Stored content can be nested as deep as the database accepts, so the walk keeps its own stack instead of
// recursing on the JavaScript one, and serves at most MAX_SERVED_DEPTH levels: anything deeper becomes a short
// marker, so every later step (JSON serialization, MCP rendering) gets bounded input.

export { EMAIL_MASK } from "./contact-text";

/** How many levels of objects and arrays a response carries; the report content itself is level 1. */
export const MAX_SERVED_DEPTH = 64;
export const NESTED_TOO_DEEP = "[nested too deep]";

const CONTACT_KEY = /^(e?mail|emailaddress|.*email|phone|phonenumber|mobile|tel|telephone|(slack|chat|teams|discord|telegram|whatsapp|signal|matrix)(id|handle|user|userid|username|name)?)$/;

export function isContactKey(key: string): boolean {
  return CONTACT_KEY.test(key.toLowerCase().replace(/[^a-z]/g, ""));
}

export function scrubContactDetails<T>(value: T): T {
  const root: { value?: unknown } = {};
  const pending: PendingValue[] = [{ value, level: 0, into: root, key: "value" }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    setOwn(next.into, next.key, scrubShallow(next.value, next.level, pending));
  }
  return root.value as T;
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
function scrubShallow(value: unknown, level: number, pending: PendingValue[]): unknown {
  if (typeof value === "string") return maskContactText(value);
  if (value === null || typeof value !== "object") return value;
  if (level >= MAX_SERVED_DEPTH) return NESTED_TOO_DEEP;
  if (Array.isArray(value)) {
    const shell: unknown[] = new Array(value.length);
    value.forEach((item, index) => pending.push({ value: item, level: level + 1, into: shell, key: index }));
    return shell;
  }
  const shell: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (isContactKey(key)) continue;
    // Placed now so the members keep their order; filled when popped.
    setOwn(shell, key, null);
    pending.push({ value: inner, level: level + 1, into: shell, key });
  }
  return shell;
}

/** Sets an own member, also one named __proto__ (which plain assignment would take for the prototype). */
function setOwn(into: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(into, key, { value, writable: true, enumerable: true, configurable: true });
  else (into as Record<string | number, unknown>)[key] = value;
}
