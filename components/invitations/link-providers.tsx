"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";

/** Completes a link with Google or GitHub: only with the address the link was made for. */
export function LinkProviders({
  token,
  providers,
  holdLink,
}: {
  token: string;
  providers: { id: string; name: string }[];
  holdLink: (token: string) => Promise<boolean>;
}) {
  const [refused, setRefused] = useState(false);
  async function go(provider: string) {
    if (!(await holdLink(token))) {
      setRefused(true);
      return;
    }
    await signIn(provider, { callbackUrl: "/settings" });
  }
  return (
    <div className="oauth-list">
      {refused && (
        <p className="alert alert--error" role="alert">
          This link cannot be used any more. Reload the page to see why.
        </p>
      )}
      {providers.map((p) => (
        <button key={p.id} type="button" className="button button--secondary" onClick={() => void go(p.id)}>
          Continue with {p.name}
        </button>
      ))}
      <p className="hint">With the account of the address above only.</p>
    </div>
  );
}
