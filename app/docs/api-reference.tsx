"use client";

import dynamic from "next/dynamic";
import type { AnyApiReferenceConfiguration } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

// Scalar mounts a Vue app in the browser; it has no server rendering, so it loads on the client only.
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => <p className="docs-reference-loading">Loading the API reference…</p>,
});

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

export function ApiReference() {
  return <ApiReferenceReact configuration={CONFIGURATION} />;
}
