"use client";

import Script from "next/script";
import { useEffect, useRef, useState } from "react";
import type { AnyApiReferenceConfiguration, CreateApiReference } from "@scalar/types/api-reference";

declare global {
  interface Window {
    /** Set by Scalar's browser build (/docs/api-reference.js). */
    Scalar?: { createApiReference: CreateApiReference };
  }
}

// Everything Scalar would fetch from elsewhere is off: fonts, telemetry, the hosted agent and request proxy.
const CONFIGURATION: AnyApiReferenceConfiguration = {
  url: "/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: "never",
  forceDarkModeState: "light",
  hideDarkModeToggle: true,
  documentDownloadType: "json",
  defaultOpenAllTags: true,
  hideModels: false,
  operationTitleSource: "summary",
  orderSchemaPropertiesBy: "preserve",
  hiddenClients: {
    c: true,
    clojure: true,
    csharp: true,
    objc: true,
    ocaml: true,
    r: true,
    kotlin: true,
    swift: true,
    powershell: true,
  },
  defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
  customCss: `
    .scalar-app {
      --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
      --scalar-font-code: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
    }
    .light-mode {
      --scalar-color-accent: #9a3412;
      --scalar-background-accent: #fff1e6;
    }
  `,
};

/**
 * Scalar's browser build (served by /docs/api-reference.js, not bundled) mounts a Vue app on the client once its
 * script has loaded; it has no server rendering. The app is destroyed with the component.
 */
export function ApiReference() {
  const mount = useRef<HTMLDivElement>(null);
  const [script, setScript] = useState<"loading" | "ready" | "failed">("loading");
  useEffect(() => {
    if (script !== "ready" || !mount.current || !window.Scalar) return;
    const reference = window.Scalar.createApiReference(mount.current, CONFIGURATION);
    return () => reference.destroy();
  }, [script]);
  return (
    <>
      <Script
        src="/docs/api-reference.js"
        strategy="afterInteractive"
        onReady={() => setScript("ready")}
        onError={() => setScript("failed")}
      />
      {script === "loading" && <p className="docs-reference-loading">Loading the API reference…</p>}
      {script === "failed" && (
        <p className="docs-reference-loading">
          The interactive reference could not load; the same reference is <a href="/openapi.json">openapi.json</a>.
        </p>
      )}
      <div ref={mount} />
    </>
  );
}
