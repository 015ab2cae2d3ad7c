// Microsoft Teams through Microsoft Graph: a client-credentials token of the
// tenant (login.microsoftonline.com/<tenant>/oauth2/v2.0/token, scope
// graph's .default), cached until it expires, then the message to the
// configured chat (POST /v1.0/chats/<chat>/messages, HTML). An apiBaseUrl
// serves both paths (a proxy in front of both hosts). Graph finds no chat
// of a person by e-mail here, so every message goes to the chat. Failures
// carry error.message (Graph) or error_description (the token endpoint).
import { htmlText } from "../message-text.ts";
import { baseUrlOf, destinationId, type ImVendor } from "./im-vendor.ts";
import { cachedToken, tokenKey } from "./token-cache.ts";
import type { Json } from "./vendor-api.ts";

const LOGIN = "https://login.microsoftonline.com";
const GRAPH = "https://graph.microsoft.com";
const SCOPE = "https://graph.microsoft.com/.default";

export const teams: ImVendor = {
  type: "TEAMS",
  field: "teams",
  required: ["tenantId", "clientId", "clientSecret"],
  chatField: "chatId",
  rules: {
    failure: (body: Json) => {
      const error: unknown = body.error;
      if (typeof error === "object" && error !== null) return String((error as Json).message ?? (error as Json).code ?? "failed");
      return typeof error === "string" ? String(body.error_description ?? error).split("\n")[0] : undefined;
    },
    tokenRejected: (status) => status === 401,
  },
  async post(api, entry, to, text) {
    const { tenantId, clientId, clientSecret } = entry.fields as { tenantId: string; clientId: string; clientSecret: string };
    const login = baseUrlOf(entry, LOGIN);
    const key = tokenKey("TEAMS", login, tenantId, clientId, clientSecret);
    const token = await cachedToken(key, async () => {
      const url = `${login}/${encodeURIComponent(tenantId)}/oauth2/v2.0/token`;
      const form = { client_id: clientId, client_secret: clientSecret, scope: SCOPE, grant_type: "client_credentials" };
      const { body } = await api.call({ name: "oauth2/v2.0/token", grantsToken: true, url, form });
      return { token: String(body.access_token ?? ""), expiresInS: Number(body.expires_in ?? 0) };
    });
    const chat = destinationId(to);
    return api.call({
      name: "chats/messages",
      url: `${baseUrlOf(entry, GRAPH)}/v1.0/chats/${encodeURIComponent(chat)}/messages`,
      json: { body: { contentType: "html", content: htmlText(text) } },
      headers: { authorization: `Bearer ${token}` },
      token: key,
    });
  },
};
