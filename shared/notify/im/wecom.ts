// WeCom (WeChat Work): an access_token from gettoken with the corp id and the
// application's secret, cached until it expires; a person's userid by e-mail
// (user/get_userid_by_email); then message/send from the application (its
// agent id) to that userid, or appchat/send to the configured chat. The token
// travels in the query, as WeCom requires; errors never show URLs. Every
// answer carries errcode; errcode ≠ 0 is a failure with WeCom's errmsg.
import { plainText } from "../message-text.ts";
import { baseUrlOf, type ImEntry, type ImVendor } from "./im-vendor.ts";
import { cachedToken, tokenKey } from "./token-cache.ts";
import type { Json, VendorApi } from "./vendor-api.ts";

const API = "https://qyapi.weixin.qq.com";
// Invalid or expired access_token.
const TOKEN_CODES = new Set([40014, 42001]);
// System busy; over the call frequency.
const BUSY_CODES = new Set([-1, 45009]);
// No member with that e-mail (the lookup's "nobody").
const NO_USER_CODES = new Set([46004, 60111]);

const root = (entry: ImEntry) => `${baseUrlOf(entry, API)}/cgi-bin`;

async function accessToken(api: VendorApi, entry: ImEntry): Promise<{ key: string; query: string }> {
  const { corpId, secret } = entry.fields as { corpId: string; secret: string };
  const key = tokenKey("WECOM", root(entry), corpId, secret);
  const token = await cachedToken(key, async () => {
    const { body } = await api.call({ name: "gettoken", grantsToken: true, url: `${root(entry)}/gettoken?${new URLSearchParams({ corpid: corpId, corpsecret: secret })}` });
    return { token: String(body.access_token ?? ""), expiresInS: Number(body.expires_in ?? 0) };
  });
  return { key, query: new URLSearchParams({ access_token: token }).toString() };
}

export const wecom: ImVendor = {
  type: "WECOM",
  field: "wecom",
  required: ["corpId", "agentId", "secret"],
  chatField: "chatId",
  rules: {
    failure: (body: Json) => (body.errcode === 0 ? undefined : `${String(body.errmsg ?? "failed")} (errcode ${String(body.errcode)})`),
    tokenRejected: (_status, body) => TOKEN_CODES.has(body.errcode),
    transient: (body) => BUSY_CODES.has(body.errcode),
  },
  async findPerson(api, entry, email) {
    const { key, query } = await accessToken(api, entry);
    const url = `${root(entry)}/user/get_userid_by_email?${query}`;
    const reply = await api.call({ name: "get_userid_by_email", url, json: { email, email_type: 1 }, token: key, absent: (body) => NO_USER_CODES.has(body.errcode) });
    return reply.absent ? undefined : String(reply.body.userid ?? "") || undefined;
  },
  async post(api, entry, to, text) {
    const { key, query } = await accessToken(api, entry);
    const content = { text: { content: plainText(text) }, msgtype: "text" };
    if ("chat" in to) return api.call({ name: "appchat/send", url: `${root(entry)}/appchat/send?${query}`, json: { chatid: to.chat, ...content }, token: key });
    const agentid = Number(entry.fields.agentId);
    return api.call({ name: "message/send", url: `${root(entry)}/message/send?${query}`, json: { touser: to.person, agentid, ...content }, token: key });
  },
};
