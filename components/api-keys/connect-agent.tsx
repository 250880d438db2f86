"use client";

import { useState } from "react";
import { agentSetups } from "@/lib/settings/agent-setups";

interface Props {
  secret: string;
  /** This server's public address (SUNDOWN_URL, else the one the page was opened at). */
  base: string;
}

/** "Connect an agent": each client's setup with the new key in place, shown with the key and gone with it. */
export function ConnectAgent({ secret, base }: Props) {
  const setups = agentSetups({ key: secret, base });
  const [copied, setCopied] = useState<string | null>(null);
  async function copy(id: string, text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(id);
    } catch {
      setCopied(null);
    }
  }
  return (
    <section className="connect-agent" aria-labelledby="connect-agent-title">
      <h3 id="connect-agent-title">Connect an agent</h3>
      <p className="hint" style={{ color: "inherit" }}>
        Ready to paste, with this key in place. Each holds the key: treat the file or command like the key itself.
      </p>
      {setups.map((setup) => (
        <details key={setup.id}>
          <summary>{setup.client}</summary>
          <p className="hint" style={{ color: "inherit" }}>
            {setup.where}
          </p>
          <pre className="code-block" aria-label={`${setup.client} setup`}>
            <code>{setup.text}</code>
          </pre>
          <div className="actions">
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => copy(setup.id, setup.text)}
            >
              {copied === setup.id ? "Copied" : `Copy the ${setup.client} setup`}
            </button>
          </div>
          <p className="hint" style={{ color: "inherit" }}>
            {setup.note}
          </p>
        </details>
      ))}
    </section>
  );
}
