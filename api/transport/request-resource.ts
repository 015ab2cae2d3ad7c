// The resource a request acts on, read from its name-like field: `name`,
// `resource` or `parent`, else the `name` of its first message field that has
// one (UpdateSetting's setting.name), else the user a `loginId` names (sign-in,
// unlock). Handlers may state it instead.
import type { DescMessage, Message } from "@bufbuild/protobuf";
import { userName } from "../../shared/platform/index.ts";
import { normalizeLoginId } from "../../shared/platform/index.ts";

const NAME_FIELDS = ["name", "resource", "parent"];

export function requestResource(desc: DescMessage, message: Message): string {
  const record = message as unknown as Record<string, unknown>;
  for (const key of NAME_FIELDS) {
    const value = record[key];
    if (typeof value === "string" && value !== "") return value;
  }
  for (const field of desc.fields) {
    if (field.fieldKind !== "message") continue;
    const nested = record[field.localName] as Record<string, unknown> | undefined;
    if (typeof nested?.["name"] === "string" && nested["name"] !== "") return nested["name"];
  }
  const loginId = typeof record["loginId"] === "string" ? normalizeLoginId(record["loginId"]) : undefined;
  return loginId ? userName(loginId) : "";
}
