// An organization with many keys and a year of key activity, for the settings page's measurement
// (bench/settings-page.ts) and its test (tests/integration/settings-page-keys.test.ts). Keys are rows, not
// usable secrets: the page never sees a secret, only hashes and hints.
import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db";

const DAY_MS = 86_400_000;

/** How many keys of each kind, out of `keys`: the rest are revoked. */
export interface KeyMix {
  keys: number;
  active: number;
  expiringSoon: number;
  rolled: number;
  expired: number;
}

export const PAGE_BENCH_MIX: KeyMix = { keys: 200, active: 40, expiringSoon: 5, rolled: 10, expired: 30 };

type Kind = "active" | "expiringSoon" | "rolled" | "expired" | "revoked";

function kindOf(index: number, mix: KeyMix): Kind {
  const bounds: [Kind, number][] = [
    ["active", mix.active],
    ["expiringSoon", mix.expiringSoon],
    ["rolled", mix.rolled],
    ["expired", mix.expired],
  ];
  let start = 0;
  for (const [kind, count] of bounds) {
    if (index < start + count) return kind;
    start += count;
  }
  return "revoked";
}

/** Writes a new organization with `mix.keys` keys created over the year before `now`, each with its events. */
export async function seedKeyHistory(mix: KeyMix, now = new Date()): Promise<{ organizationId: string }> {
  const db = await getDb();
  const slug = `keys-${randomBytes(4).toString("hex")}`;
  const organization = await db.organization.create({ data: { slug, name: "Many Keys" }, select: { id: true } });
  const keys = Array.from({ length: mix.keys }, (_, i) => {
    const kind = kindOf(i, mix);
    const createdAt = new Date(now.getTime() - (365 - Math.floor((i * 360) / mix.keys)) * DAY_MS);
    const expiresAt =
      kind === "expiringSoon"
        ? new Date(now.getTime() + 3 * DAY_MS)
        : kind === "expired"
          ? new Date(now.getTime() - DAY_MS)
          : null;
    const revokedAt =
      kind === "revoked"
        ? new Date((createdAt.getTime() + now.getTime()) / 2)
        : kind === "rolled"
          ? new Date(now.getTime() + DAY_MS)
          : null;
    return {
      id: crypto.randomUUID(),
      kind,
      row: {
        organizationId: organization.id,
        name: `agent-${i}`,
        hashedKey: randomBytes(32).toString("hex"),
        hint: `sdn_sk_${String(i).padStart(4, "0")}…seed`,
        scopes: ["reports:read", "team:read"],
        createdAt,
        expiresAt,
        revokedAt,
      },
    };
  });
  // Each rolled key was replaced by one of the active ones.
  const rolled = keys.filter((k) => k.kind === "rolled");
  const rolledTo = (index: number) => (keys[index]!.kind === "rolled" ? keys[rolled.indexOf(keys[index]!)]!.id : null);
  await db.apiKey.createMany({ data: keys.map((k, i) => ({ id: k.id, ...k.row, rolledToId: rolledTo(i) })) });
  const line = (key: (typeof keys)[number], action: "created" | "revoked", createdAt: Date) => ({
    organizationId: organization.id,
    subjectType: "api_key",
    subjectId: key.id,
    subjectLabel: key.row.name,
    action,
    detail: { hint: key.row.hint },
    actorLabel: "seed",
    createdAt,
  });
  await db.activityEvent.createMany({
    data: keys.flatMap((k) => [
      line(k, "created", k.row.createdAt),
      ...(k.kind === "revoked" ? [line(k, "revoked", k.row.revokedAt!)] : []),
    ]),
  });
  return { organizationId: organization.id };
}
