// Report content is free-form JSON written by people and tools, so contact details can hide anywhere in it.
// Everything leaving the service passes through here: keys that name contact details are dropped at any depth,
// and e-mail addresses inside text are masked.

const CONTACT_KEY = /^(e?mail|emailaddress|.*email|phone|phonenumber|mobile|tel|telephone|(slack|chat|teams|discord|telegram|whatsapp|signal|matrix)(id|handle|user|userid|username|name)?)$/;
const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
export const EMAIL_MASK = "[email hidden]";

export function isContactKey(key: string): boolean {
  return CONTACT_KEY.test(key.toLowerCase().replace(/[^a-z]/g, ""));
}

export function scrubContactDetails<T>(value: T): T {
  return scrub(value) as T;
}

function scrub(value: unknown): unknown {
  if (typeof value === "string") return value.replace(EMAIL_IN_TEXT, EMAIL_MASK);
  if (Array.isArray(value)) return value.map(scrub);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (!isContactKey(key)) out[key] = scrub(inner);
    }
    return out;
  }
  return value;
}
