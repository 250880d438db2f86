import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db";
import { findSessionUserByEmail, type SessionUser } from "@/lib/data/users";
import type { MemberRole } from "@/lib/schemas/team";

// An organization of one test file's own, with a signed-in user of each role: for settings actions that change
// what the demo organizations' other tests read (their reports, their name and time zone).

export interface SettingsOrg {
  id: string;
  slug: string;
  name: string;
  founder: SessionUser;
  lead: SessionUser;
  member: SessionUser;
  remove(): Promise<void>;
}

export async function createSettingsOrg(label: string): Promise<SettingsOrg> {
  const db = await getDb();
  const slug = `${label}-${randomUUID().slice(0, 8)}`;
  const org = await db.organization.create({
    data: { slug, name: `${label} ${slug.slice(-8)}` },
    select: { id: true, slug: true, name: true },
  });
  const userOf = async (role: MemberRole, name: string) => {
    const member = await db.member.create({ data: { organizationId: org.id, name, role }, select: { id: true } });
    const email = `${role}@${slug}.example`;
    await db.user.create({ data: { email, passwordHash: "not-used", memberId: member.id }, select: { id: true } });
    return (await findSessionUserByEmail(email))!;
  };
  return {
    ...org,
    founder: await userOf("founder", "Fran Founder"),
    lead: await userOf("lead", "Lee Lead"),
    member: await userOf("member", "Max Member"),
    remove: async () => {
      await db.organization.delete({ where: { id: org.id } });
    },
  };
}
