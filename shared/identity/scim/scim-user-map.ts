// Users as SCIM User resources and back (contract §19.4): userName is the
// login id, the primary e-mail (else the work one, else the first) the
// e-mail, displayName (else name.formatted, else given and family names) the
// title, active the state. Other attributes (phone numbers, addresses, the
// enterprise extension, a password) are not kept.
import { normalizeLoginId, parseEmail, quoted } from "../../platform/index.ts";
import type { UserRow } from "../user/user.store.ts";
import { invalidValue } from "./scim-error.ts";
import { booleanAttribute, isObject, stringAttribute, type Json, type JsonObject } from "./scim-json.ts";
import { SCIM_SCHEMA } from "./scim-schemas.ts";

export interface ScimUserRecord {
  user: UserRow;
  /** The id the directory knows the user by; "" when none. */
  externalId: string;
}

/** What a SCIM User body says of the user. */
export interface ScimUserFields {
  loginId: string;
  externalId: string;
  title: string;
  email: string;
  /** undefined when the body does not say. */
  active: boolean | undefined;
}

export function scimUser({ user, externalId }: ScimUserRecord, baseUrl: string): JsonObject {
  return {
    schemas: [SCIM_SCHEMA.user],
    id: user.loginId,
    ...(externalId ? { externalId } : {}),
    userName: user.loginId,
    name: { formatted: user.title },
    displayName: user.title,
    ...(user.email ? { emails: [{ value: user.email, type: "work", primary: true }] } : {}),
    active: user.state === "ACTIVE",
    meta: {
      resourceType: "User",
      created: user.createTime.toISOString(),
      lastModified: user.updateTime.toISOString(),
      location: `${baseUrl}/Users/${encodeURIComponent(user.loginId)}`,
    },
  };
}

/** The fields of a User resource in canonical form (scim-json.ts). */
export function scimUserFields(resource: JsonObject): ScimUserFields {
  const userName = stringAttribute(resource.username, "userName");
  if (!userName) throw invalidValue("userName is required");
  const loginId = normalizeLoginId(userName);
  if (!loginId) throw invalidValue(`userName ${quoted(userName)} is not a valid login id: letters, digits and . _ @ + -, up to 128 characters`);
  return {
    loginId,
    externalId: stringAttribute(resource.externalid, "externalId"),
    title: titleOf(resource) || loginId,
    email: parseEmail(primaryEmail(resource.emails), "emails"),
    active: booleanAttribute(resource.active, "active"),
  };
}

function titleOf(resource: JsonObject): string {
  const displayName = stringAttribute(resource.displayname, "displayName").trim();
  if (displayName) return displayName;
  if (resource.name === undefined || resource.name === null) return "";
  if (!isObject(resource.name)) throw invalidValue("name must be an object");
  const { formatted, givenname, familyname } = resource.name;
  const full = stringAttribute(formatted, "name.formatted").trim();
  if (full) return full;
  return [stringAttribute(givenname, "name.givenName"), stringAttribute(familyname, "name.familyName")]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(" ");
}

/** The address of the primary e-mail, else of the work one, else of the first; "" when none. */
function primaryEmail(emails: Json | undefined): string {
  if (emails === undefined || emails === null) return "";
  const list = Array.isArray(emails) ? emails : [emails];
  const entries = list.map((entry, i) => {
    if (!isObject(entry)) throw invalidValue(`emails[${i}] must be an object with a value`);
    return entry;
  });
  const chosen =
    entries.find((e) => booleanAttribute(e.primary, "emails.primary") === true) ??
    entries.find((e) => typeof e.type === "string" && e.type.toLowerCase() === "work") ??
    entries[0];
  return chosen ? stringAttribute(chosen.value, "emails.value") : "";
}
