import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { ATTEMPT_TIMEOUT_MS } from "./schedule";

// One POST to a receiver, to the address that was checked (lib/webhooks/target.ts): the connection's lookup is
// pinned to it, so a second DNS answer (rebinding) cannot move the request to another host, while TLS still
// verifies the certificate for the URL's host name. No redirect is followed, no connection is kept, and no more
// than RESPONSE_KEPT_BYTES of the answer is read.

export const RESPONSE_KEPT_BYTES = 1024;

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed, for people: null for a 2xx answer. */
  error: string | null;
  /** The start of the receiver's answer, as text the database stores (storableAnswer). */
  responseBody: string | null;
}

export interface SendRequest {
  url: URL;
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
}

export function postWebhook({ url, address, family, headers, body, timeoutMs = ATTEMPT_TIMEOUT_MS }: SendRequest) {
  const started = performance.now();
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve({ ...result, durationMs: Math.round(performance.now() - started) });
    };
    const request = (url.protocol === "https:" ? https : http).request(
      {
        method: "POST",
        hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        lookup: (_host, options, callback) => {
          if (options.all) callback(null, [{ address, family }]);
          else (callback as (e: null, a: string, f: number) => void)(null, address, family);
        },
        servername: isIP(hostname) ? undefined : hostname,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () =>
          finish({
            statusCode: response.statusCode ?? null,
            error: describeStatus(response.statusCode ?? 0, response.headers.location),
            responseBody: storableAnswer(Buffer.concat(chunks)),
          });
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk.subarray(0, RESPONSE_KEPT_BYTES - kept));
          kept += Math.min(chunk.length, RESPONSE_KEPT_BYTES - kept);
          if (kept >= RESPONSE_KEPT_BYTES) done();
        });
        response.on("end", done);
        response.on("error", done);
      },
    );
    const timer = setTimeout(
      () => finish({ statusCode: null, error: `no answer within ${timeoutMs / 1000} s`, responseBody: null }),
      timeoutMs,
    );
    request.on("error", (error: NodeJS.ErrnoException) =>
      finish({ statusCode: null, error: describeError(error), responseBody: null }),
    );
    request.end(body);
  });
}

/**
 * The answer's bytes as text both databases take: invalid UTF-8 (a gzip body, an image, an answer cut inside a
 * character) becomes U+FFFD, as does U+0000, which a text column refuses (22021) and which would otherwise fail
 * the statement that records the attempt.
 */
function storableAnswer(bytes: Buffer): string {
  return bytes.toString("utf8").replaceAll("\0", "\uFFFD");
}

function describeStatus(status: number, location: string | undefined): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400)
    return `answered ${status}${location ? ` to ${location.slice(0, 200)}` : ""}: redirects are not followed; register the final URL`;
  return `answered ${status}`;
}

function describeError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset before an answer";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    default:
      return error.message || String(error.code);
  }
}
