// E-mail for tests: a server whose EMAIL setting points at a loopback SMTP
// peer (helpers/smtp.ts), WORKSPACE_PROFILE switches, and a wait for a
// settings change to reach the server's settings cache.
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "./app.ts";
import { restClient } from "./rest.ts";
import { signInFirstAdmin } from "./sessions.ts";
import { startSmtpPeer, type SmtpPeer } from "./smtp.ts";
import { ADMIN, makeUser } from "./users.ts";

type Rest = ReturnType<typeof restClient>;

const SMTP_LOGIN = { username: "mailer", password: "smtp-Secret-1" };

export interface MailingApp {
  app: TestApp;
  rest: Rest;
  smtp: SmtpPeer;
  /** The first administrator's access token. */
  admin: string;
}

/** A server with its first administrator signed in, EMAIL through a new SMTP peer, and the users `loginIds` (<id>@example.com). */
export async function startMailingApp(loginIds: readonly string[]): Promise<MailingApp> {
  const app = await startTestApp({ bootstrap: ADMIN });
  const rest = restClient(app.baseUrl);
  const smtp = await startSmtpPeer(SMTP_LOGIN);
  const admin = await signInFirstAdmin(rest);
  await configureEmail(rest, admin, smtp.port);
  for (const id of loginIds) await makeUser(app.db, id);
  return { app, rest, smtp, admin };
}

/** EMAIL through 127.0.0.1:`port`, plain SMTP with PLAIN authentication. */
async function configureEmail(rest: Rest, token: string, port: number): Promise<void> {
  const smtp = { host: "127.0.0.1", port, encryption: "NONE", authentication: "PLAIN", ...SMTP_LOGIN };
  const reply = await rest("PATCH", "/v1/settings/EMAIL?updateMask=email", { token, body: { value: { email: { from: "svc@example.com", fromName: "Svc", smtp } } } });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
}

/** Writes one WORKSPACE_PROFILE field (camelCase). */
export async function setProfileField(rest: Rest, token: string, field: string, value: unknown): Promise<void> {
  const reply = await rest("PATCH", `/v1/settings/WORKSPACE_PROFILE?updateMask=workspaceProfile.${field}`, {
    token,
    body: { value: { workspaceProfile: { [field]: value } } },
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
}

/** Repeats `attempt` until `done` holds for its result: a settings change reaches every cache within seconds. */
export async function eventually<T>(attempt: () => Promise<T>, done: (result: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await attempt();
    if (done(result)) return result;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(result)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The 6-digit code of a sign-in code mail. */
export function mailedCode(raw: string): string {
  const match = /sign-in code for .* is (\d{6})/.exec(raw);
  assert.ok(match, `no code in the mail:\n${raw}`);
  return match[1]!;
}
