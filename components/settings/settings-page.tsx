import type { ReactNode } from "react";
import { unstable_rethrow } from "next/navigation";
import type { SessionUser } from "@/lib/data/users";
import { isDatabaseUnavailable } from "@/lib/errors";
import { requireSession } from "@/lib/session/require-session";
import { mayOpen, settingsSection, type SectionId } from "@/lib/settings/sections";
import { SectionHead } from "./section-head";
import { SectionRefusal } from "./section-refusal";
import { UnavailableNotice } from "./unavailable-notice";

interface PageOptions<Props> {
  /** The page's heading when it is not the section's name (a page inside the section). */
  heading?: string;
  /** Where sign-in comes back to, when not the section's own page. */
  path?: (props: Props) => Promise<string>;
}

/**
 * A settings page of a section: the session (signed out, a redirect to sign-in that comes back here), the
 * section's role rule (a refusal that says whom to ask), then `render`, whose reads, if the database does not
 * answer, become a notice instead of a bare 500. The rule is decided here, by every page, not by the layout: Next
 * renders a layout beside its page, not before it, and keeps it when a link leads to another section, so a
 * layout's check would neither hold back the page's reads nor run again.
 */
export function settingsPage<Props extends object>(
  id: SectionId,
  render: (props: Props & { user: SessionUser; heading: string }) => Promise<ReactNode>,
  options: PageOptions<Props> = {},
) {
  const section = settingsSection(id);
  const heading = options.heading ?? section.label;
  return async function SettingsSectionPage(props: Props) {
    try {
      const user = await requireSession(options.path ? await options.path(props) : section.href);
      if (!mayOpen(user, section)) {
        return (
          <>
            <SectionHead title={heading} />
            <SectionRefusal section={section} user={user} />
          </>
        );
      }
      return await render({ ...props, user, heading });
    } catch (error) {
      // Sign-in redirects and 404s pass; a database that does not answer is said on the page.
      unstable_rethrow(error);
      if (!isDatabaseUnavailable(error)) throw error;
      return (
        <>
          <SectionHead title={heading} />
          <UnavailableNotice title={`${heading} cannot be shown right now`} />
        </>
      );
    }
  };
}
