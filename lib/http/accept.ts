// Content negotiation for the resources that also have a markdown representation (RFC 9110 §12.5.1).
// JSON (or the HTML page) stays the default: a missing Accept, */*, or one that ranks markdown below another
// acceptable type gets it. Markdown is chosen only when the client names text/markdown and ranks nothing it
// names above it; a tie goes to markdown, because browsers and JSON clients never name text/markdown, and an
// agent that does (e.g. "text/markdown, text/html, */*") is asking for it.

const MARKDOWN = "text/markdown";

interface MediaRange {
  type: string;
  q: number;
}

function parseAccept(accept: string): MediaRange[] {
  return accept.split(",").flatMap((part) => {
    const [range = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (!range.includes("/")) return [];
    const qParameter = parameters.find((parameter) => /^q\s*=/.test(parameter));
    const q = qParameter ? Number(qParameter.slice(qParameter.indexOf("=") + 1).trim()) : 1;
    return [{ type: range, q: Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0 }];
  });
}

/** Whether a request's Accept header asks for text/markdown over the resource's default representation. */
export function prefersMarkdown(accept: string | null): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const markdown = ranges.find((range) => range.type === MARKDOWN);
  if (!markdown || markdown.q === 0) return false;
  return ranges.every((range) => range.type === MARKDOWN || range.q <= markdown.q);
}
