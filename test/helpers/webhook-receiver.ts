// An in-process HTTP receiver on loopback for notification webhooks: it keeps
// every request (path, headers, exact body) and answers each by the next
// planned answer (a status with headers and body, or no answer at all),
// then 200 once the plan is used up.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  time: number;
}

export type PlannedAnswer = { status: number; headers?: Record<string, string>; body?: string } | "hang";

export interface WebhookReceiver {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  received: ReceivedRequest[];
  /** Answers the next requests in this order. */
  plan(...answers: PlannedAnswer[]): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const planned: PlannedAnswer[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), time: Date.now() });
      const answer = planned.shift() ?? { status: 200, body: "ok" };
      if (answer === "hang") return void hanging.push(response);
      response.writeHead(answer.status, answer.headers).end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    plan: (...answers) => void planned.push(...answers),
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
