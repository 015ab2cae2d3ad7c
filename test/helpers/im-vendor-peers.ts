// In-process stand-ins for the IM vendors' APIs on loopback, answering as
// each vendor does: token endpoints that issue numbered tokens with a
// lifetime, look-ups by e-mail, message endpoints that check the token, and
// the vendor's own failure bodies. Each peer keeps every request; a planned
// answer replaces the vendor's usual one for the next request to a path.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

type Json = Record<string, any>;

export interface PeerRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body read as JSON or as a form. */
  data: Json;
}

interface Answer {
  status: number;
  body: Json;
}

export interface VendorPeer {
  origin: string;
  received: PeerRequest[];
  /** The requests whose path (without query) ends with `suffix`. */
  calls(suffix: string): PeerRequest[];
  /** The next request to a path ending with `suffix` gets this answer instead. */
  plan(suffix: string, answer: Answer): void;
  /** Lifetime (expires_in) of the tokens issued from now on. */
  tokenLifetimeS: number;
  /** E-mail → the vendor's id of the person (for vendors that find people). */
  people: Map<string, string>;
  close(): Promise<void>;
}

interface PeerState {
  tokens: string[];
  lifetime(): number;
  people: Map<string, string>;
}

type Handler = (request: PeerRequest, state: PeerState) => Answer;

async function startPeer(handle: Handler): Promise<VendorPeer> {
  const received: PeerRequest[] = [];
  const planned: { suffix: string; answer: Answer }[] = [];
  const tokens: string[] = [];
  const peer = { tokenLifetimeS: 7200, people: new Map<string, string>() } as VendorPeer;
  const state: PeerState = { tokens, lifetime: () => peer.tokenLifetimeS, people: peer.people };
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const request = { method: incoming.method ?? "", path: incoming.url ?? "", headers: incoming.headers, body, data: parseBody(incoming.headers, body) };
      received.push(request);
      const at = planned.findIndex((p) => pathOf(request).endsWith(p.suffix));
      const answer = at >= 0 ? planned.splice(at, 1)[0]!.answer : handle(request, state);
      response.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(peer, {
    origin,
    received,
    calls: (suffix: string) => received.filter((r) => pathOf(r).endsWith(suffix)),
    plan: (suffix: string, answer: Answer) => void planned.push({ suffix, answer }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

function pathOf(request: PeerRequest): string {
  return request.path.split("?")[0]!;
}

function queryOf(request: PeerRequest): URLSearchParams {
  return new URL(request.path, "http://peer").searchParams;
}

function parseBody(headers: IncomingHttpHeaders, body: string): Json {
  if (!body) return {};
  if (String(headers["content-type"]).startsWith("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(body));
  return JSON.parse(body) as Json;
}

function issueToken(state: PeerState, prefix: string): string {
  const token = `${prefix}-${state.tokens.length + 1}`;
  state.tokens.push(token);
  return token;
}

const latest = (state: PeerState) => state.tokens.at(-1);
const ok = (body: Json): Answer => ({ status: 200, body });

export const SLACK_TOKEN = "xoxb-slack-bot-token";

export function startSlackPeer(): Promise<VendorPeer> {
  return startPeer((request, state) => {
    if (request.headers.authorization !== `Bearer ${SLACK_TOKEN}`) return ok({ ok: false, error: "invalid_auth" });
    if (pathOf(request).endsWith("/users.lookupByEmail")) {
      const id = state.people.get(queryOf(request).get("email") ?? "");
      return ok(id ? { ok: true, user: { id } } : { ok: false, error: "users_not_found" });
    }
    if (pathOf(request).endsWith("/chat.postMessage")) return ok({ ok: true, channel: request.data.channel, ts: "1700000000.000100", message: { text: request.data.text } });
    return ok({ ok: false, error: "unknown_method" });
  });
}

/** Feishu and Lark: /open-apis/... */
export function startOpenPlatformPeer(): Promise<VendorPeer> {
  return startPeer((request, state) => {
    const path = pathOf(request);
    if (path.endsWith("/auth/v3/tenant_access_token/internal")) {
      if (request.data.app_secret !== "app-secret") return ok({ code: 10014, msg: "app secret invalid" });
      return ok({ code: 0, msg: "ok", tenant_access_token: issueToken(state, "tenant-access-token"), expire: state.lifetime() });
    }
    if (request.headers.authorization !== `Bearer ${latest(state)}`) return { status: 400, body: { code: 99991663, msg: "Invalid access token for authorization." } };
    if (path.endsWith("/contact/v3/users/batch_get_id")) {
      const list = (request.data.emails as string[]).map((email) => (state.people.has(email) ? { email, user_id: state.people.get(email) } : { email }));
      return ok({ code: 0, msg: "success", data: { user_list: list } });
    }
    if (path.endsWith("/im/v1/messages")) return ok({ code: 0, msg: "success", data: { message_id: "om_1", chat_id: request.data.receive_id } });
    return { status: 404, body: { code: 404, msg: "not found" } };
  });
}

export function startWecomPeer(): Promise<VendorPeer> {
  return startPeer((request, state) => {
    const path = pathOf(request);
    const query = queryOf(request);
    if (path.endsWith("/cgi-bin/gettoken")) {
      if (query.get("corpsecret") !== "wecom-secret") return ok({ errcode: 40001, errmsg: "invalid credential" });
      return ok({ errcode: 0, errmsg: "ok", access_token: issueToken(state, "wecom-access-token"), expires_in: state.lifetime() });
    }
    if (query.get("access_token") !== latest(state)) return ok({ errcode: 40014, errmsg: "invalid access_token" });
    if (path.endsWith("/user/get_userid_by_email")) {
      const id = state.people.get(request.data.email);
      return ok(id ? { errcode: 0, errmsg: "ok", userid: id } : { errcode: 46004, errmsg: "user no exist" });
    }
    if (path.endsWith("/message/send") || path.endsWith("/appchat/send")) return ok({ errcode: 0, errmsg: "ok" });
    return ok({ errcode: 404, errmsg: "unknown api" });
  });
}

export function startDingtalkPeer(): Promise<VendorPeer> {
  return startPeer((request, state) => {
    const path = pathOf(request);
    if (path.endsWith("/v1.0/oauth2/accessToken")) {
      if (request.data.appSecret !== "ding-secret") return { status: 400, body: { code: "invalidClientSecret", message: "client secret invalid" } };
      return ok({ accessToken: issueToken(state, "ding-access-token"), expireIn: state.lifetime() });
    }
    if (request.headers["x-acs-dingtalk-access-token"] !== latest(state)) return { status: 401, body: { code: "InvalidAuthentication", message: "token invalid" } };
    if (path.endsWith("/v1.0/robot/groupMessages/send")) return ok({ processQueryKey: "pqk-1" });
    return { status: 404, body: { code: "NotFound", message: "no such api" } };
  });
}

export function startTeamsPeer(): Promise<VendorPeer> {
  return startPeer((request, state) => {
    const path = pathOf(request);
    if (path.endsWith("/oauth2/v2.0/token")) {
      if (request.data.client_secret !== "teams-secret") return { status: 401, body: { error: "invalid_client", error_description: "AADSTS7000215: Invalid client secret provided." } };
      return ok({ token_type: "Bearer", access_token: issueToken(state, "graph-access-token"), expires_in: state.lifetime() });
    }
    if (request.headers.authorization !== `Bearer ${latest(state)}`) return { status: 401, body: { error: { code: "InvalidAuthenticationToken", message: "Access token is empty." } } };
    if (/\/v1\.0\/chats\/[^/]+\/messages$/.test(path)) return { status: 201, body: { id: "1700000000000", body: request.data.body } };
    return { status: 404, body: { error: { code: "NotFound", message: "no such resource" } } };
  });
}

export const TELEGRAM_TOKEN = "123456:telegram-bot-token";

export function startTelegramPeer(): Promise<VendorPeer> {
  return startPeer((request) => {
    if (!pathOf(request).startsWith(`/bot${TELEGRAM_TOKEN}/`)) return { status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } };
    if (pathOf(request).endsWith("/sendMessage")) return ok({ ok: true, result: { message_id: 1, chat: { id: request.data.chat_id }, text: request.data.text } });
    return { status: 404, body: { ok: false, error_code: 404, description: "Not Found" } };
  });
}

export interface ImPeers {
  slack: VendorPeer;
  feishu: VendorPeer;
  lark: VendorPeer;
  wecom: VendorPeer;
  dingtalk: VendorPeer;
  teams: VendorPeer;
  telegram: VendorPeer;
}

export async function startImPeers(): Promise<ImPeers> {
  return {
    slack: await startSlackPeer(),
    feishu: await startOpenPlatformPeer(),
    lark: await startOpenPlatformPeer(),
    wecom: await startWecomPeer(),
    dingtalk: await startDingtalkPeer(),
    teams: await startTeamsPeer(),
    telegram: await startTelegramPeer(),
  };
}

/** Every credential and token the peers accept or issue: none may show in a log, an answer or the audit. */
export const IM_SECRETS = [SLACK_TOKEN, "app-secret", "wecom-secret", "ding-secret", "teams-secret", TELEGRAM_TOKEN, "tenant-access-token", "wecom-access-token", "ding-access-token", "graph-access-token"];

/** APP_IM with every vendor enabled, each pointed at its peer, with a chat of its own. */
export function appImPointingAt(peers: ImPeers): Json {
  return {
    settings: [
      { type: "SLACK", enabled: true, apiBaseUrl: `${peers.slack.origin}/api`, slack: { token: SLACK_TOKEN, channel: "#ops" } },
      { type: "FEISHU", enabled: true, apiBaseUrl: peers.feishu.origin, feishu: { appId: "feishu-app", appSecret: "app-secret", chatId: "oc_feishu" } },
      { type: "LARK", enabled: true, apiBaseUrl: peers.lark.origin, lark: { appId: "lark-app", appSecret: "app-secret", chatId: "oc_lark" } },
      { type: "WECOM", enabled: true, apiBaseUrl: peers.wecom.origin, wecom: { corpId: "corp-1", agentId: "1000002", secret: "wecom-secret", chatId: "wecom-chat" } },
      { type: "DINGTALK", enabled: true, apiBaseUrl: peers.dingtalk.origin, dingtalk: { clientId: "ding-client", clientSecret: "ding-secret", robotCode: "ding-robot", chatId: "cid-ding" } },
      { type: "TEAMS", enabled: true, apiBaseUrl: peers.teams.origin, teams: { tenantId: "tenant-1", clientId: "teams-client", clientSecret: "teams-secret", chatId: "19:chat@thread.v2" } },
      { type: "TELEGRAM", enabled: true, apiBaseUrl: peers.telegram.origin, telegram: { botToken: TELEGRAM_TOKEN, chatId: "-1001" } },
    ],
  };
}
