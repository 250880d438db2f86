"use client";

import { formatDateTime, machineTime } from "../format";
import type { RolledSecret } from "./roll-secret-dialog";
import { SigningSecret } from "./signing-secret";

/** A rolled secret's one display, with what happens to the old secret: receivers must switch before then. */
export function RolledSecretNotice({ rolled }: { rolled: RolledSecret }) {
  const stopsAt = rolled.previousSecretExpiresAt ? new Date(rolled.previousSecretExpiresAt) : null;
  return (
    <SigningSecret title={`Secret of ${rolled.target.url} rolled`} secret={rolled.secret}>
      <p style={{ margin: 0 }}>
        {stopsAt ? (
          <>
            The old secret also signs every delivery until{" "}
            <time dateTime={machineTime(stopsAt)}>{formatDateTime(stopsAt)}</time>: deploy the new one to your receiver
            before then.
          </>
        ) : (
          "The old secret signs nothing from now on: deliveries fail until your receiver has the new one."
        )}
      </p>
    </SigningSecret>
  );
}
