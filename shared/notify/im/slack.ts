// Slack's Web API with the bot token: users.lookupByEmail finds a person's
// id (users_not_found: nobody), chat.postMessage posts to that id (a direct
// message from the bot) or to the configured channel. Every answer carries
// ok; ok:false is a failure with Slack's error code.
import { slackText } from "../message-text.ts";
import { baseUrlOf, destinationId, type ImVendor } from "./im-vendor.ts";

const API = "https://slack.com/api";

export const slack: ImVendor = {
  type: "SLACK",
  field: "slack",
  required: ["token"],
  chatField: "channel",
  rules: {
    failure: (body) => (body.ok === true ? undefined : String(body.error ?? "the answer is not ok")),
    tokenRejected: (_status, body) => body.error === "invalid_auth" || body.error === "token_expired",
    transient: (body) => body.error === "ratelimited" || body.error === "internal_error" || body.error === "service_unavailable",
  },
  async findPerson(api, entry, email) {
    const url = `${baseUrlOf(entry, API)}/users.lookupByEmail?${new URLSearchParams({ email })}`;
    const reply = await api.call({ name: "users.lookupByEmail", url, headers: bearer(entry.fields.token!), absent: (body) => body.error === "users_not_found" });
    return reply.absent ? undefined : String(reply.body.user?.id ?? "") || undefined;
  },
  post(api, entry, to, text) {
    const channel = destinationId(to);
    return api.call({
      name: "chat.postMessage",
      url: `${baseUrlOf(entry, API)}/chat.postMessage`,
      json: { channel, text: slackText(text), unfurl_links: false },
      headers: bearer(entry.fields.token!),
    });
  },
};

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
