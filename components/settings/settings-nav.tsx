"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** A section as the navigation shows it: the layout passes only the sections the user may open. */
export interface NavSection {
  id: string;
  label: string;
  href: string;
}

/**
 * The settings sections, one link each, the current one marked. A client component only to know the current
 * path: the layout around it is kept, not rendered again, when a link leads from one section to another.
 */
export function SettingsNav({ sections }: { sections: NavSection[] }) {
  const pathname = usePathname();
  if (sections.length === 0) return null;
  return (
    <nav aria-label="Settings" className="settings-nav">
      <ul>
        {sections.map(({ id, label, href }) => {
          const current = pathname === href || pathname.startsWith(`${href}/`);
          return (
            <li key={id}>
              <Link href={href} aria-current={current ? "page" : undefined}>
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
