import { discoveryUrls } from "@/lib/public-urls";

// /robots.txt (RFC 9309) with Content Signals (contentsignals.org): search engines and AI agents may read the
// public guide and discovery documents, and answer from them, but not train on them. The API itself and the
// signed-in pages are no crawler's business: the API answers nothing without a key, and the pages are private.

/** Crawlers that gather training data: ai-train=no, so they read nothing. */
const TRAINING_CRAWLERS = [
  "GPTBot",
  "ClaudeBot",
  "CCBot",
  "Google-Extended",
  "Applebot-Extended",
  "Bytespider",
  "meta-externalagent",
];

/** Search and user-driven agents of the AI assistants, named so that their rules are explicit: those of `*`. */
const AGENT_CRAWLERS = [
  "OAI-SearchBot",
  "ChatGPT-User",
  "Claude-SearchBot",
  "Claude-User",
  "PerplexityBot",
  "Perplexity-User",
];

const CONTENT_SIGNAL = "search=yes, ai-input=yes, ai-train=no";

// Paths only (an empty base): robots.txt applies to the host it is fetched from, whatever it is called.
const PUBLIC = discoveryUrls("");
const ALLOWED = [
  PUBLIC.documentation,
  PUBLIC.llmsTxt,
  PUBLIC.llmsFullTxt,
  PUBLIC.openapi,
  "/.well-known/",
  // The API root is public discovery; everything else under /api/ needs a key.
  `${PUBLIC.apiRoot}$`,
];
const DISALLOWED = ["/api/", "/settings", "/signin"];

export function buildRobotsTxt(): string {
  return `# Sundown: read-only end-of-day reports for AI agents. Start at ${PUBLIC.llmsTxt}.
#
# Content signals (https://contentsignals.org/): search = building a search index and showing results;
# ai-input = using the content as input to AI models (grounding, retrieval, answers); ai-train = training or
# fine-tuning AI models. yes grants the use, no withholds it.

${["*", ...AGENT_CRAWLERS].map((agent) => `User-agent: ${agent}`).join("\n")}
Content-Signal: ${CONTENT_SIGNAL}
${ALLOWED.map((path) => `Allow: ${path}`).join("\n")}
${DISALLOWED.map((path) => `Disallow: ${path}`).join("\n")}

${TRAINING_CRAWLERS.map((agent) => `User-agent: ${agent}`).join("\n")}
Disallow: /
`;
}
