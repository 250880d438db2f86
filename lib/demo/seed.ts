import { writeReportItems } from "@/lib/data/report-items";
import { randomUUID } from "node:crypto";
import { hashPassword } from "@/lib/auth/password";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { getEnv } from "@/lib/env";
import type { ReportContent } from "@/lib/schemas/reports";
import { DEMO_DAYS, DEMO_ORGANIZATIONS, type DemoMember, type DemoOrganization } from "./data";
import { loadKnownContacts } from "@/lib/data/known-contacts";
import { reportSearchText, SEARCH_TEXT_VERSION } from "@/lib/data/report-search-text";

// Deterministic pseudo-random numbers, so the demo reads the same on every machine.
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = ReturnType<typeof prng>;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

interface SeededMember extends DemoMember {
  id: string;
  email: string;
}

const SHIPPED = ["Merged", "Released", "Closed out", "Deployed", "Demoed"];
const SLIPPING_REASONS = [
  "waiting on vendor parts",
  "scope grew after review",
  "flaky integration tests",
  "owner out sick two days",
  "depends on the billing migration",
];
const BLOCKERS = [
  "Staging database is out of disk",
  "Legal review of the pilot contract",
  "No access to the customer's VPN yet",
  "CI runners saturated since Monday",
  "Design sign-off missing for the new flow",
];

function reportContent(
  org: DemoOrganization,
  members: SeededMember[],
  day: number,
  random: Random,
  focus?: SeededMember,
): ReportContent {
  const active = members.filter((m) => m.active !== false);
  const people = focus && focus.role === "member" ? [focus] : active;
  const shipped = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
    const owner = pick(random, people);
    return { title: `${pick(random, SHIPPED)} ${pick(random, org.projects)}`, owner: owner.name, member_id: owner.id };
  });
  const quiet = active.filter(() => random() < 0.15).slice(0, 2);
  const silent = quiet.map((m) => ({
    member: m.name,
    member_id: m.id,
    days_silent: 1 + Math.floor(random() * 4),
    // Stored as a report tool would write it; stripped before any response.
    email: m.email,
    slack_id: `U${m.handle.toUpperCase()}01`,
  }));
  const slipping =
    random() < 0.7
      ? [
          {
            item: pick(random, org.projects),
            owner: pick(random, people).name,
            days_late: 1 + Math.floor(random() * 6),
            reason: pick(random, SLIPPING_REASONS),
          },
        ]
      : [];
  const blockers =
    random() < 0.5
      ? [
          {
            description: pick(random, BLOCKERS),
            owner: pick(random, people).name,
            since_days: 1 + Math.floor(random() * 5),
          },
        ]
      : [];
  const kpi_status = org.kpis.map((kpi) => {
    const raw = kpi.base + (random() - 0.4) * kpi.base * 0.05;
    const value = kpi.unit === "%" || kpi.unit === "hours" ? Math.round(raw * 10) / 10 : Math.round(raw);
    const better =
      kpi.name.includes("bugs") || kpi.name.includes("response") ? value <= kpi.target : value >= kpi.target;
    return {
      name: kpi.name,
      value,
      unit: kpi.unit,
      target: kpi.target,
      status: better ? "on_track" : value > kpi.target * 0.9 ? "at_risk" : "off_track",
    };
  });
  const subject = focus ? focus.name : org.name;
  const headline = `${subject}: ${shipped.length} shipped, ${slipping.length} slipping, ${blockers.length} blocker${blockers.length === 1 ? "" : "s"}${silent.length ? `, ${silent.length} silent` : ""}`;
  return { headline, kpi_status, shipped, silent, slipping, blockers };
}

async function seedOrganization(
  db: Db,
  org: DemoOrganization,
  seed: number,
  now: Date,
  passwordHashes: string[],
): Promise<void> {
  const random = prng(seed);
  const organizationId = randomUUID();
  const members: SeededMember[] = org.members.map((m) => ({
    ...m,
    id: randomUUID(),
    email: `${m.handle}@${org.domain}`,
  }));
  const leads = members.filter((m) => m.role === "lead");
  const regular = members.filter((m) => m.role === "member" && m.active !== false);
  const reports: {
    id: string;
    organizationId: string;
    scope: "org" | "lead" | "member";
    scopeTargetId: string | null;
    generatedAt: Date;
    headline: string;
    content: ReportContent;
  }[] = [];
  const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let day = DEMO_DAYS - 1; day >= 0; day--) {
    const at = (minutes: number) =>
      new Date(startOfToday - day * 86_400_000 - 86_400_000 + (17 * 60 + minutes) * 60_000);
    const add = (scope: "org" | "lead" | "member", minutes: number, focus?: SeededMember) => {
      const content = reportContent(org, members, day, random, focus);
      reports.push({
        id: randomUUID(),
        organizationId,
        scope,
        scopeTargetId: focus?.id ?? null,
        generatedAt: at(minutes),
        headline: content.headline,
        content,
      });
    };
    add("org", 30);
    if (day % 2 === 0) add("lead", 20, leads[(day / 2) % leads.length]);
    add("member", 10, regular[day % regular.length]);
  }
  const users = members
    .filter((m) => m.signIn)
    .map((m, i) => ({
      id: randomUUID(),
      email: `${m.signIn}@${org.domain}`,
      passwordHash: passwordHashes[i]!,
      memberId: m.id,
    }));

  await db.$transaction(async (tx) => {
    await tx.organization.create({
      data: { id: organizationId, slug: org.slug, name: org.name },
      select: { id: true },
    });
    await tx.member.createMany({
      data: members.map((m) => ({
        id: m.id,
        organizationId,
        name: m.name,
        role: m.role,
        department: m.department,
        isExternal: m.isExternal ?? false,
        active: m.active ?? true,
        email: m.email,
        chatHandle: `@${m.handle}`,
      })),
    });
    await tx.user.createMany({ data: users });
    const contacts = await loadKnownContacts(tx, organizationId);
    await tx.report.createMany({
      data: reports.map((r) => ({
        ...r,
        content: r.content as Prisma.InputJsonObject,
        searchText: reportSearchText(r.content, contacts),
        searchTextVersion: SEARCH_TEXT_VERSION,
      })),
    });
    await writeReportItems((sql, ...values) => tx.$executeRawUnsafe(sql, ...values), organizationId);
  });
}

/** Seeds the demo organizations that do not exist yet. Returns the slugs it created. */
export async function seedDemo(db: Db, now = new Date()): Promise<string[]> {
  const password = getEnv().SUNDOWN_DEMO_PASSWORD;
  const created: string[] = [];
  for (const [index, org] of DEMO_ORGANIZATIONS.entries()) {
    const exists = await db.organization.findUnique({ where: { slug: org.slug }, select: { id: true } });
    if (exists) continue;
    const signIns = org.members.filter((m) => m.signIn).length;
    const hashes = await Promise.all(Array.from({ length: signIns }, () => hashPassword(password)));
    await seedOrganization(db, org, 1_000 + index, now, hashes);
    created.push(org.slug);
  }
  return created;
}

/** First start of an embedded database: an empty database gets the demo data. */
