import Link from "next/link";
import { SETTINGS_HOME, YOUR_DAY } from "@/lib/settings/sections";

// The root layout reads no session (public pages stay static), so the header links to everyone's day and to the settings as a whole;
// which sections a role may open, the settings navigation says (lib/settings/sections.ts).
export function SiteHeader() {
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link href="/" className="brand" aria-label="Sundown home">
          <span className="brand__mark" aria-hidden="true" />
          Sundown
        </Link>
        <nav aria-label="Main">
          <ul className="nav-list">
            <li>
              <Link href="/docs">Docs</Link>
            </li>
            <li>
              <Link href={YOUR_DAY.href}>{YOUR_DAY.label}</Link>
            </li>
            <li>
              <Link href={SETTINGS_HOME}>Settings</Link>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
