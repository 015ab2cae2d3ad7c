// What an IM vendor is to the IM channel: how an APP_IM entry of its type
// becomes an API client, whether it can message a person found by e-mail,
// and how it posts a message to a person or to the entry's chat.
import type { MessageText } from "../message-text.ts";
import type { VendorApi, VendorReply, VendorRules } from "./vendor-api.ts";

export const IM_TYPES = ["SLACK", "FEISHU", "WECOM", "LARK", "DINGTALK", "TEAMS", "TELEGRAM"] as const;
export type ImType = (typeof IM_TYPES)[number];

/** An enabled APP_IM entry, its credentials opened (only in the attempt that sends). */
export interface ImEntry {
  type: ImType;
  /** apiBaseUrl without a trailing slash; "" for the vendor's own API. */
  baseUrl: string;
  /** The entry's fields by their JSON names (token, appId, chatId, …), secrets opened. */
  fields: Record<string, string>;
}

/** A person's account with the vendor, or the entry's chat. */
export type Destination = { person: string } | { chat: string };

export interface ImVendor {
  type: ImType;
  /** The APP_IM entry's field that holds this vendor's configuration. */
  field: string;
  /** Fields that must be set before anything can be sent. */
  required: readonly string[];
  /** The field naming the chat for messages to nobody in particular. */
  chatField: string;
  rules: VendorRules;
  /** Finds a person's account by e-mail (vendors whose API allows it); undefined when there is none. */
  findPerson?(api: VendorApi, entry: ImEntry, email: string): Promise<string | undefined>;
  post(api: VendorApi, entry: ImEntry, to: Destination, text: MessageText): Promise<VendorReply>;
}

/** The entry's API root, or the vendor's own. */
export function baseUrlOf(entry: ImEntry, vendorDefault: string): string {
  return entry.baseUrl || vendorDefault;
}

/** The vendor's id of the destination: the person's account or the chat. */
export function destinationId(to: Destination): string {
  return "person" in to ? to.person : to.chat;
}
