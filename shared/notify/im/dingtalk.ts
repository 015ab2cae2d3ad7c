// DingTalk: an accessToken from the application's client id and secret
// (oauth2/accessToken), cached until it expires, then the robot (its robot
// code) posts to the configured group (robot/groupMessages/send with the
// group's openConversationId). DingTalk's open API finds no one by e-mail,
// so every message goes to the group. A failing answer carries code and
// message (errcode and errmsg on the older API).
import { plainText } from "../message-text.ts";
import { baseUrlOf, destinationId, type ImVendor } from "./im-vendor.ts";
import { cachedToken, tokenKey } from "./token-cache.ts";
import type { Json } from "./vendor-api.ts";

const API = "https://api.dingtalk.com";

export const dingtalk: ImVendor = {
  type: "DINGTALK",
  field: "dingtalk",
  required: ["clientId", "clientSecret", "robotCode"],
  chatField: "chatId",
  rules: {
    failure: (body: Json) => {
      if (body.errcode !== undefined && body.errcode !== 0) return `${String(body.errmsg ?? "failed")} (errcode ${String(body.errcode)})`;
      return typeof body.code === "string" ? `${String(body.message ?? "failed")} (code ${body.code})` : undefined;
    },
    tokenRejected: (status) => status === 401,
    transient: (body) => body.errcode === -1,
  },
  async post(api, entry, to, text) {
    const base = baseUrlOf(entry, API);
    const { clientId, clientSecret, robotCode } = entry.fields as { clientId: string; clientSecret: string; robotCode: string };
    const key = tokenKey("DINGTALK", base, clientId, clientSecret);
    const token = await cachedToken(key, async () => {
      const { body } = await api.call({ name: "oauth2/accessToken", grantsToken: true, url: `${base}/v1.0/oauth2/accessToken`, json: { appKey: clientId, appSecret: clientSecret } });
      return { token: String(body.accessToken ?? ""), expiresInS: Number(body.expireIn ?? 0) };
    });
    const chat = destinationId(to);
    return api.call({
      name: "robot/groupMessages/send",
      url: `${base}/v1.0/robot/groupMessages/send`,
      json: { robotCode, openConversationId: chat, msgKey: "sampleText", msgParam: JSON.stringify({ content: plainText(text) }) },
      headers: { "x-acs-dingtalk-access-token": token },
      token: key,
    });
  },
};
