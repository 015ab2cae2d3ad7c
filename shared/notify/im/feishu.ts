// Feishu and Lark (the same open platform, two hosts): a tenant_access_token
// from the app id and secret, cached until it expires; a person's open_id by
// e-mail (contact/v3 users batch_get_id: no user_id means nobody); then
// im/v1/messages to that open_id or to the configured chat_id. Every answer
// carries code; code ≠ 0 is a failure with the platform's msg.
import { plainText } from "../message-text.ts";
import { baseUrlOf, type ImEntry, type ImType, type ImVendor } from "./im-vendor.ts";
import { cachedToken, tokenKey } from "./token-cache.ts";
import type { Json, VendorApi } from "./vendor-api.ts";

// Tenant token missing, invalid or expired.
const TOKEN_CODES = new Set([99991661, 99991663, 99991668]);
// Rate-limited, or the platform busy.
const BUSY_CODES = new Set([99991400, 99991401, 1500]);

function openPlatform(type: ImType, field: string, defaultApi: string): ImVendor {
  const root = (entry: ImEntry) => `${baseUrlOf(entry, defaultApi)}/open-apis`;
  const token = async (api: VendorApi, entry: ImEntry) => {
    const { appId, appSecret } = entry.fields as { appId: string; appSecret: string };
    const key = tokenKey(type, root(entry), appId, appSecret);
    const value = await cachedToken(key, async () => {
      const { body } = await api.call({ name: "tenant_access_token", grantsToken: true, url: `${root(entry)}/auth/v3/tenant_access_token/internal`, json: { app_id: appId, app_secret: appSecret } });
      return { token: String(body.tenant_access_token ?? ""), expiresInS: Number(body.expire ?? 0) };
    });
    return { key, headers: { authorization: `Bearer ${value}` } };
  };
  return {
    type,
    field,
    required: ["appId", "appSecret"],
    chatField: "chatId",
    rules: {
      failure: (body: Json) => (body.code === 0 ? undefined : `${String(body.msg ?? "failed")} (code ${String(body.code)})`),
      tokenRejected: (_status, body) => TOKEN_CODES.has(body.code),
      transient: (body) => BUSY_CODES.has(body.code),
    },
    async findPerson(api, entry, email) {
      const { key, headers } = await token(api, entry);
      const url = `${root(entry)}/contact/v3/users/batch_get_id?user_id_type=open_id`;
      const { body } = await api.call({ name: "users.batch_get_id", url, json: { emails: [email] }, headers, token: key });
      const found = (body.data?.user_list as Json[] | undefined)?.find((u) => u.email === email)?.user_id;
      return typeof found === "string" && found ? found : undefined;
    },
    async post(api, entry, to, text) {
      const { key, headers } = await token(api, entry);
      const [idType, id] = "person" in to ? ["open_id", to.person] : ["chat_id", to.chat];
      const content = JSON.stringify({ text: plainText(text) });
      return api.call({ name: "im.messages", url: `${root(entry)}/im/v1/messages?receive_id_type=${idType}`, json: { receive_id: id, msg_type: "text", content }, headers, token: key });
    },
  };
}

export const feishu = openPlatform("FEISHU", "feishu", "https://open.feishu.cn");
export const lark = openPlatform("LARK", "lark", "https://open.larksuite.com");
