import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

// A webhook receiver on loopback, as a customer would run one: it records every request and answers as the test
// tells it (`respond`), by default 204.

interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export type Respond = (request: ReceivedWebhook, response: http.ServerResponse) => void;

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  respond: Respond;
  /** The distinct webhook-ids received. */
  ids(): Set<string>;
  /** Verifies a request's signature and timestamp as the standardwebhooks library does; returns the parsed body. */
  verify(request: ReceivedWebhook, secret: string): unknown;
  close(): Promise<void>;
}

export async function startWebhookReceiver(respond: Respond = answer(204)): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: "",
    received: [],
    respond,
    ids: () => new Set(receiver.received.map((r) => r.headers["webhook-id"]!)),
    verify: (request, secret) => new Webhook(secret).verify(request.body, request.headers),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = {
        path: req.url ?? "/",
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString("utf8"),
      };
      receiver.received.push(request);
      receiver.respond(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}

/** Answers every request with this status (and a short body). */
export function answer(status: number, body = "", headers: Record<string, string> = {}): Respond {
  return (_request, response) => {
    response.writeHead(status, headers);
    response.end(body);
  };
}

/** Never answers: the attempt times out. */
export const hang: Respond = () => {};
