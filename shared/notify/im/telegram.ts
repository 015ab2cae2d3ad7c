// Telegram's Bot API: sendMessage with the bot token (in the path, as the
// API requires; errors never show URLs) to the configured chat id, as plain
// text. A bot cannot find a person by e-mail, so every message goes to the
// chat. Every answer carries ok; ok:false is a failure with its description.
import { plainText } from "../message-text.ts";
import { baseUrlOf, destinationId, type ImVendor } from "./im-vendor.ts";

const API = "https://api.telegram.org";

export const telegram: ImVendor = {
  type: "TELEGRAM",
  field: "telegram",
  required: ["botToken", "chatId"],
  chatField: "chatId",
  rules: {
    failure: (body) => (body.ok === true ? undefined : String(body.description ?? "the answer is not ok")),
  },
  post(api, entry, to, text) {
    const chat = destinationId(to);
    return api.call({
      name: "sendMessage",
      url: `${baseUrlOf(entry, API)}/bot${entry.fields.botToken!}/sendMessage`,
      json: { chat_id: chat, text: plainText(text), link_preview_options: { is_disabled: true } },
    });
  },
};
