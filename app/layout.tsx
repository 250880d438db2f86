import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Sundown", template: "%s · Sundown" },
  description:
    "Read-only, organization-scoped access to end-of-day reports and the team roster for AI agents and scripts, over REST and MCP.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#9a3412" };

// The root layout reads no session, so public pages (landing, docs) stay static.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SiteHeader />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </body>
    </html>
  );
}
