import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

// Next's rules (React, hooks, a11y, import, @next/next) and typescript-eslint's recommended set, as
// create-next-app sets them up; Prettier owns formatting, so ESLint's stylistic rules are off.
// `npm run lint` passes --max-warnings 0: a warning fails CI like an error.
export default defineConfig([
  ...nextVitals,
  ...nextTs,
  prettier,
  globalIgnores([
    ".next*/**",
    "out/**",
    "build/**",
    "next-env.d.ts",
    "lib/generated/**",
    "coverage/**",
    "test-results/**",
    "playwright-report/**",
    "bench/out/**",
    ".data/**",
  ]),
]);
