import { inputExcerpt } from "@/lib/text/input-excerpt";
import { withoutInvisibles } from "@/lib/text/invisible-characters";

// What report content must be for the whole service to serve it: PostgreSQL's jsonb refuses U+0000 and lone
// surrogates (with driver text the operator cannot act on), every reader of stored content walks it, and invisible
// characters are removed from it before it is stored (lib/data/invisible-characters.ts), so no two keys of an
// object may differ by those alone. The import checks all of it up front, walking with an explicit stack so that
// input nested 100,000 deep is reported, not fatal.

const REPORT_CONTENT_LIMITS = {
  /** Levels of objects and arrays, the report object itself being level 1; the scrubber cuts at 64, so nothing imported is ever cut. */
  maxDepth: 32,
  /** Characters (UTF-16 code units) in one string value or key: a long log excerpt fits, a pasted screenshot does not. */
  maxStringLength: 100_000,
  maxArrayItems: 10_000,
} as const;

export interface ContentProblem {
  /** From the content's root, e.g. ["shipped", 0, "title"]. */
  path: PropertyKey[];
  message: string;
}

interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | undefined;
  segment: PropertyKey | undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Problems of one report's content, in document order; empty when the service can store and serve it. */
export function findContentProblems(content: unknown): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const stack: Visit[] = [{ value: content, depth: 1, parent: undefined, segment: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value, depth } = visit;
    const report = (message: string) => problems.push({ path: pathOf(visit), message });
    if (typeof value === "string") {
      const problem = stringProblem(value);
      if (problem) report(problem);
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth > REPORT_CONTENT_LIMITS.maxDepth) {
      report(
        `nested more than ${REPORT_CONTENT_LIMITS.maxDepth} levels deep (objects and arrays, counting the report itself)`,
      );
      continue;
    }
    const children: Visit[] = [];
    if (Array.isArray(value)) {
      if (value.length > REPORT_CONTENT_LIMITS.maxArrayItems) {
        report(`${value.length} items is more than ${REPORT_CONTENT_LIMITS.maxArrayItems} in one array`);
      }
      value.forEach((inner, index) => children.push({ value: inner, depth: depth + 1, parent: visit, segment: index }));
    } else {
      const readableKeys = new Map<string, string>();
      for (const [key, inner] of Object.entries(value)) {
        const keyProblem = stringProblem(key);
        if (keyProblem) report(`the key ${inputExcerpt(key)}: ${keyProblem}`);
        const readable = withoutInvisibles(key);
        const same = readableKeys.get(readable);
        if (same !== undefined) {
          report(
            `the keys ${inputExcerpt(same)} and ${inputExcerpt(key)} are the same once invisible characters are removed`,
          );
        } else readableKeys.set(readable, key);
        children.push({ value: inner, depth: depth + 1, parent: visit, segment: key });
      }
    }
    // Reversed, so the stack pops them in document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return problems;
}

function stringProblem(text: string): string | undefined {
  if (text.length > REPORT_CONTENT_LIMITS.maxStringLength) {
    return `${text.length} characters is more than ${REPORT_CONTENT_LIMITS.maxStringLength} in one string`;
  }
  if (text.includes("\u0000")) return "contains U+0000 (a NUL character), which the database cannot store";
  if (LONE_SURROGATE.test(text))
    return "contains a lone UTF-16 surrogate (\\uD800–\\uDFFF without its pair), which is not valid Unicode text";
  return undefined;
}

function pathOf(visit: Visit): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Visit | undefined = visit; at?.segment !== undefined; at = at.parent) path.push(at.segment);
  return path.reverse();
}
