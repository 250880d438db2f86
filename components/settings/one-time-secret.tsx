"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";

interface Props {
  /** What happened, e.g. "Endpoint added": the region's name, which takes the focus. */
  title: ReactNode;
  /** Why it must be copied now and what to do if it is lost, in the page's words. */
  warning: ReactNode;
  /** The secret field's label. */
  label: ReactNode;
  secret: string;
  /** What the secret is called where copying fails, e.g. "key": "the key is selected". */
  noun: string;
  /** What the reader must know besides copying it, e.g. until when the old secret still signs. */
  children?: ReactNode;
  /** What uses the secret, below it and gone with it: the agent setups of a new key. */
  after?: ReactNode;
}

/**
 * The one and only display of a new secret (an API key, a webhook signing secret), with a copy button. It lives
 * in this component's memory, nowhere else in the browser; the server never shows it again.
 */
export function OneTimeSecret({ title, warning, label, secret, noun, children, after }: Props) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const [dismissed, setDismissed] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // Two can be on show at once (a created and a rolled key): ids of their own.
  const titleId = useId();
  const secretId = useId();

  useEffect(() => headingRef.current?.focus(), []);

  if (dismissed) return null;

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
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
        {title}
      </h3>
      <p className="alert alert--warning" style={{ background: "#fff" }}>
        {warning}
      </p>
      {children}
      <label htmlFor={secretId}>{label}</label>
      <div className="secret-row">
        <input
          ref={inputRef}
          id={secretId}
          type="text"
          readOnly
          value={secret}
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
            ? `Copying failed: the ${noun} is selected, press Ctrl+C or ⌘C.`
            : ""}
      </p>
      {after}
      <div>
        <button type="button" className="button button--secondary button--small" onClick={() => setDismissed(true)}>
          I have copied it
        </button>
      </div>
    </div>
  );
}
