"use client";

import type { NewIngestToken } from "@/lib/settings/ingest-token-actions";
import { OneTimeSecret } from "../settings/one-time-secret";

/** The one and only display of a new ingest token. It lives in this component's memory, nowhere else. */
export function NewTokenSecret({ token, verb = "created" }: { token: NewIngestToken; verb?: "created" | "rolled" }) {
  return (
    <OneTimeSecret
      title={
        <>
          Token &ldquo;{token.name}&rdquo; {verb}
        </>
      }
      warning={
        <>
          <strong>Copy this token now. It will not be shown again.</strong> Sundown keeps only a hash of it; if you lose
          it, roll the token to get a new one.
        </>
      }
      label={
        <>
          New ingest token (send it as <code>Authorization: Bearer …</code>)
        </>
      }
      secret={token.secret}
      noun="token"
    />
  );
}
