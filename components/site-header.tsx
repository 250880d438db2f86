import Link from "next/link";

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
              <Link href="/settings/api-keys">API keys</Link>
            </li>
            <li>
              <Link href="/settings/webhooks">Webhooks</Link>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
