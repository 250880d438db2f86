"use client";

import type { ReactNode } from "react";
import { OneTimeSecret } from "../settings/one-time-secret";

interface Props {
  /** What happened, e.g. "Endpoint added": the region's name. */
  title: string;
  secret: string;
  /** What the reader must know besides copying it, e.g. until when the old secret still signs. */
  children?: ReactNode;
}

/**
 * The one and only display of an endpoint's signing secret (on adding it, on a roll). It lives in this
 * component's memory, nowhere else in the browser; the server keeps it sealed and never shows it again.
 */
export function SigningSecret({ title, secret, children }: Props) {
  return (
    <OneTimeSecret
      title={title}
      warning={
        <>
          <strong>Copy this signing secret now. It will not be shown again.</strong> Your receiver verifies each
          delivery&rsquo;s signature with it; if you lose it, roll the secret to get a new one.
        </>
      }
      label="Signing secret"
      secret={secret}
      noun="secret"
    >
      {children}
    </OneTimeSecret>
  );
}
