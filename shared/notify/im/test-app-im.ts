// SettingService.TestAppImSetting: a test message through each enabled APP_IM
// entry (or the one of the given type), answering what each vendor said to
// the message (never to a token request). It goes to the entry's chat, or,
// when the entry has none, to the caller found by e-mail (vendors that can
// find people). Nothing enters the delivery log.
import type { CommonQueryMethods } from "slonik";
import { storedSettings } from "../../governance/index.ts";
import { contactsOf } from "../../identity/index.ts";
import { failedPrecondition, type SecretBox } from "../../platform/index.ts";
import type { MessageText } from "../message-text.ts";
import { CHAT_TARGET, IM_VENDORS, openedEntry, sendIm } from "./im-channel.ts";
import { enabledEntry } from "./im-setting.ts";
import type { ImType, ImVendor } from "./im-vendor.ts";
import { ImCallError, VendorApi } from "./vendor-api.ts";

export interface ImTestResult {
  type: ImType;
  /** "chat", or users/<login_id> for a direct message to the caller. */
  target: string;
  /** The HTTP status of the vendor's answer to the message; 0 when there was none. */
  status: number;
  body: string;
  error: string;
}

export interface ImTestRequest {
  /** One type, or undefined for every enabled entry. */
  type: ImType | undefined;
  caller: { name: string; loginId: string };
  allowPrivate: boolean;
}

const TEST_TEXT: MessageText = { headline: "Test message", lines: ["This message was sent to test settings/APP_IM. Nothing else needs to be done."], link: "" };

export async function testImEntries(db: CommonQueryMethods, secrets: SecretBox, request: ImTestRequest): Promise<ImTestResult[]> {
  const vendors: ImVendor[] = [];
  for (const vendor of IM_VENDORS) if ((request.type === undefined || request.type === vendor.type) && (await enabledEntry(storedSettings(db), vendor))) vendors.push(vendor);
  if (vendors.length === 0) throw failedPrecondition(`settings/APP_IM has no enabled ${request.type ?? "IM"} entry to test`);
  const [caller] = await contactsOf(db, [request.caller.loginId]);
  return Promise.all(vendors.map((vendor) => testOne(db, secrets, vendor, caller?.email ?? "", request)));
}

async function testOne(db: CommonQueryMethods, secrets: SecretBox, vendor: ImVendor, email: string, request: ImTestRequest): Promise<ImTestResult> {
  const result: ImTestResult = { type: vendor.type, target: CHAT_TARGET, status: 0, body: "", error: "" };
  try {
    const entry = await openedEntry(storedSettings(db), vendor, secrets);
    const toCaller = !entry.fields[vendor.chatField] && vendor.findPerson !== undefined && email !== "";
    if (toCaller) result.target = request.caller.name;
    const { answer } = await sendIm(new VendorApi(vendor.rules, request.allowPrivate), vendor, entry, toCaller ? email : "", TEST_TEXT);
    return { ...result, status: answer.status, body: answer.body.slice(0, 2048) };
  } catch (error) {
    const answer = error instanceof ImCallError ? error.answer : undefined;
    return { ...result, status: answer?.status ?? 0, body: answer?.body.slice(0, 2048) ?? "", error: (error as Error).message };
  }
}
