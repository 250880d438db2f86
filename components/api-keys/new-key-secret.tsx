"use client";

import { OneTimeSecret } from "../settings/one-time-secret";
import { ConnectAgent } from "./connect-agent";

interface Props {
  created: { name: string; secret: string; scopes: string[] };
  /** How the key came to be: created from the form, or rolled from an existing key. */
  verb?: "created" | "rolled";
  /** This server's public address: given, the agent setups with the key in place follow the key. */
  base?: string;
}

/** The one and only display of a new key's secret. It lives in this component's memory, nowhere else. */
export function NewKeySecret({ created, verb = "created", base }: Props) {
  return (
    <OneTimeSecret
      title={
        <>
          Key &ldquo;{created.name}&rdquo; {verb}
        </>
      }
      warning={
        <>
          <strong>Copy this key now. It will not be shown again.</strong> Sundown keeps only a hash of it; if you lose
          it, roll the key to get a new one.
        </>
      }
      label={<>New API key ({created.scopes.join(", ")})</>}
      secret={created.secret}
      noun="key"
      after={base ? <ConnectAgent secret={created.secret} base={base} /> : undefined}
    />
  );
}
