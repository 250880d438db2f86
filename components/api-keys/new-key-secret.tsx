"use client";

import { useEffect, useId, useRef, useState } from "react";

interface Props {
  created: { name: string; secret: string; scopes: string[] };
  /** How the key came to be: created from the form, or rolled from an existing key. */
  verb?: "created" | "rolled";
}

/** The one and only display of a new key's secret. It lives in this component's memory, nowhere else. */
export function NewKeySecret({ created, verb = "created" }: Props) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const [dismissed, setDismissed] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // A created and a rolled key can be on show at once: ids of their own.
  const titleId = useId();
  const secretId = useId();

  useEffect(() => headingRef.current?.focus(), []);

  if (dismissed) return null;

  async function copy() {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied("copied");
    } catch {
      // No clipboard permission (or an insecure origin): select the text so Ctrl+C / Cmd+C works.
      inputRef.current?.select();
      setCopied("failed");
    }
  }

  return (
    <div
      className="alert alert--success secret-box"
      role="region"
      aria-labelledby={titleId}
      style={{ marginBottom: "1.25rem" }}
    >
      <h3 id={titleId} ref={headingRef} tabIndex={-1} style={{ margin: 0 }}>
        Key &ldquo;{created.name}&rdquo; {verb}
      </h3>
      <p className="alert alert--warning" style={{ background: "#fff" }}>
        <strong>Copy this key now. It will not be shown again.</strong> Sundown keeps only a hash of it; if you lose it,
        roll the key to get a new one.
      </p>
      <label htmlFor={secretId}>New API key ({created.scopes.join(", ")})</label>
      <div className="secret-row">
        <input
          ref={inputRef}
          id={secretId}
          type="text"
          readOnly
          value={created.secret}
          spellCheck={false}
          autoComplete="off"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="button button--primary" onClick={copy}>
          {copied === "copied" ? "Copied" : "Copy"}
        </button>
      </div>
      <p className="hint" aria-live="polite" style={{ color: "inherit", minHeight: "1.4em" }}>
        {copied === "copied"
          ? "Copied to the clipboard."
          : copied === "failed"
            ? "Copying failed: the key is selected, press Ctrl+C or ⌘C."
            : ""}
      </p>
      <div>
        <button type="button" className="button button--secondary button--small" onClick={() => setDismissed(true)}>
          I have copied it
        </button>
      </div>
    </div>
  );
}
