import Link from "next/link";
import type { SessionUser } from "@/lib/data/users";
import { ACCESS, type SettingsSection } from "@/lib/settings/sections";

/**
 * What a section shows someone whose role it does not admit, instead of its content: the rule, why, and whom to
 * ask. Every section words it from its own entry in lib/settings/sections.ts.
 */
export function SectionRefusal({ section, user }: { section: SettingsSection; user: SessionUser }) {
  // Named by who may change it: a section leads only see is still a founders' one to a member.
  const access = ACCESS[section.change ?? section.access];
  const organization = user.organization.name;
  const { why, need, docs } = section.refusal;
  return (
    <section className="card notice" aria-labelledby="no-access-title">
      <h2 id="no-access-title">
        Only {access.who} {section.manage}
      </h2>
      <p>
        You are signed in as a {user.role} of {organization}. {why}
      </p>
      <p style={{ marginBottom: 0 }}>
        {need && `${need} `}Ask {access.someone} of {organization}.
        {docs && (
          <>
            {" "}
            Meanwhile, the <Link href="/docs">API docs</Link> {docs}.
          </>
        )}
      </p>
    </section>
  );
}
