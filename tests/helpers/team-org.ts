import { randomUUID } from "node:crypto";
import { hashPassword } from "@/lib/auth/password";
import { getDb } from "@/lib/db";
import { findSessionUser, type SessionUser } from "@/lib/data/users";
import type { MemberRole } from "@/lib/schemas/team";

// A fresh organization of its own for a test that changes a roster: a founder, a lead and a member who sign in
// with TEAM_PASSWORD, so the demo organizations that other files share stay as they are.

export const TEAM_PASSWORD = "team-org-password-1";

export interface TeamOrg {
  id: string;
  slug: string;
  name: string;
  founder: SessionUser;
  lead: SessionUser;
  member: SessionUser;
}

export async function createTeamOrg(): Promise<TeamOrg> {
  const db = await getDb();
  const tag = randomUUID().slice(0, 8);
  const org = await db.organization.create({
    data: { slug: `team-${tag}`, name: `Team ${tag}` },
    select: { id: true, slug: true, name: true },
  });
  const passwordHash = await hashPassword(TEAM_PASSWORD);
  const person = async (role: MemberRole, name: string) => {
    const email = `${role}-${tag}@team.example`;
    const member = await db.member.create({
      data: { organizationId: org.id, name, role, email },
      select: { id: true },
    });
    const user = await db.user.create({
      data: { email, passwordHash, memberId: member.id },
      select: { id: true },
    });
    return (await findSessionUser(user.id))!;
  };
  return {
    ...org,
    founder: await person("founder", "Fatima Founder"),
    lead: await person("lead", "Leo Lead"),
    member: await person("member", "Mia Member"),
  };
}
