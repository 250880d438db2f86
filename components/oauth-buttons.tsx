"use client";

import { signIn } from "next-auth/react";

export function OAuthButtons({
  providers,
  callbackPath,
}: {
  providers: { id: string; name: string }[];
  callbackPath: string;
}) {
  return (
    <div className="oauth-list">
      {providers.map((p) => (
        <button
          key={p.id}
          type="button"
          className="button button--secondary"
          onClick={() => void signIn(p.id, { callbackUrl: callbackPath })}
        >
          Continue with {p.name}
        </button>
      ))}
    </div>
  );
}
