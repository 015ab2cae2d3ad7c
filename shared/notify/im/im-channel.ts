// The IM channels (contract §16.3): one per vendor, named by its APP_IM type,
// sending through its enabled entry. The people an event concerns
// (recipients.ts) get one delivery each where the vendor can find them by
// e-mail (Slack, Feishu, Lark, WeCom): a direct message, or — when the vendor
// has no account with that e-mail — the configured chat, naming them. An
// event concerning nobody in particular, and every event of the vendors that
// cannot find people (DingTalk, Teams, Telegram), is one delivery to the
// configured chat. An entry without a chat sends only direct messages.
import type { SettingReader } from "../../governance/index.ts";
import { type SecretBox, userName } from "../../platform/index.ts";
import type { Channel } from "../channel.ts";
import { messageText, type MessageText } from "../message-text.ts";
import type { NotificationPayload } from "../payload.ts";
import { recipientsOf } from "../recipients.ts";
import type { AttemptOutcome } from "../retry-policy.ts";
import { dingtalk } from "./dingtalk.ts";
import { feishu, lark } from "./feishu.ts";
import { enabledEntry, hasChat, openEntry } from "./im-setting.ts";
import type { Destination, ImEntry, ImVendor } from "./im-vendor.ts";
import { slack } from "./slack.ts";
import { teams } from "./teams.ts";
import { telegram } from "./telegram.ts";
import { ImCallError, VendorApi, type VendorReply } from "./vendor-api.ts";
import { wecom } from "./wecom.ts";

export const IM_VENDORS: readonly ImVendor[] = [slack, feishu, wecom, lark, dingtalk, teams, telegram];

/** What the log shows of a delivery to the entry's chat. */
export const CHAT_TARGET = "chat";

function imChannel(vendor: ImVendor): Channel {
  return {
    name: vendor.type,
    async targets(tx, event, settings) {
      const im = await enabledEntry(settings, vendor);
      if (!im) return [];
      const people = vendor.findPerson ? await recipientsOf(tx, event) : [];
      if (people.length > 0) return people.map((person) => ({ target: userName(person.loginId), address: person.email }));
      return hasChat(im, vendor) ? [{ target: CHAT_TARGET, address: "" }] : [];
    },
    send(delivery, context) {
      return imOutcome(async () => {
        const api = new VendorApi(vendor.rules, context.allowPrivate);
        await sendIm(api, vendor, await openedEntry(context.settings, vendor, context.secrets), delivery.address, messageText(delivery.payload as NotificationPayload));
      });
    },
  };
}

/** The vendor's enabled entry in `settings` (as stored now), its credentials opened; a final failure when there is none or it lacks one. */
export async function openedEntry(settings: SettingReader, vendor: ImVendor, secrets: SecretBox): Promise<ImEntry> {
  const im = await enabledEntry(settings, vendor);
  if (!im) throw new ImCallError({ kind: "failed", error: `settings/APP_IM has no enabled ${vendor.type} entry` });
  const entry = openEntry(im, vendor, secrets);
  if ("missing" in entry) throw new ImCallError({ kind: "failed", error: entry.missing });
  return entry;
}

export const IM_CHANNELS: readonly Channel[] = IM_VENDORS.map(imChannel);

/** One message: to the person with that e-mail when the vendor finds them, else to the chat; `email` "" means the chat. */
export async function sendIm(api: VendorApi, vendor: ImVendor, entry: ImEntry, email: string, text: MessageText): Promise<VendorReply> {
  const person = email && vendor.findPerson ? await vendor.findPerson(api, entry, email) : undefined;
  if (person) return vendor.post(api, entry, { person }, text);
  const chat = entry.fields[vendor.chatField];
  if (!chat) throw new ImCallError({ kind: "failed", error: `no ${vendor.type} account has the recipient's e-mail address, and ${vendor.field}.${vendor.chatField} is not set` });
  const to: Destination = { chat };
  return vendor.post(api, entry, to, email ? { ...text, lines: [`For ${email}`, ...text.lines] } : text);
}

async function imOutcome(send: () => Promise<void>): Promise<AttemptOutcome> {
  try {
    await send();
    return { kind: "sent" };
  } catch (error) {
    return error instanceof ImCallError ? error.outcome : { kind: "retry", error: (error as Error).message };
  }
}
