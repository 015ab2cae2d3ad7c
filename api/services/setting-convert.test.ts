// The seam between svc.v1's setting payloads and the store's (svc.store):
// the store keeps every field a client may write under the same name and
// JSON name (so rows written before the store package existed read the
// same), marks exactly the API's credentials secret, and leaves out only the
// API's `_set` flags; conversions keep every value and hide credentials.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create, getOption, toJson, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { secret as storeSecret } from "../../shared/gen/svc/store/annotation_pb.js";
import { SettingValueSchema as StoreSettingValueSchema } from "../../shared/gen/svc/store/setting_pb.js";
import { AppImSettingSchema, EmailSettingSchema, AppImSetting_Type } from "../../shared/gen/svc/v1/setting_integrations_pb.js";
import { EmergencyPauseSettingSchema } from "../../shared/gen/svc/v1/setting_operations_pb.js";
import { SETTINGS, settingKind } from "../../shared/governance/index.ts";
import { isOutputOnlyField, isSecretField } from "../transport/secret-fields.ts";
import { apiPayloadField, payloadView, toApiPayload, toStorePayload } from "./setting-convert.ts";

/** Differences between a store message and the API's, as readable lines (none expected). */
function differences(store: DescMessage, api: DescMessage, seen = new Set<string>()): string[] {
  if (seen.has(store.typeName)) return [];
  seen.add(store.typeName);
  const found: string[] = [];
  for (const field of store.fields) {
    const twin = api.fields.find((f) => f.name === field.name);
    if (!twin) {
      found.push(`${store.typeName}.${field.name} is not in ${api.typeName}`);
      continue;
    }
    if (twin.jsonName !== field.jsonName || twin.fieldKind !== field.fieldKind || twin.number !== field.number) found.push(`${store.typeName}.${field.name} differs in form`);
    if (getOption(field, storeSecret) !== isSecretField(twin)) found.push(`${store.typeName}.${field.name} differs in being secret`);
    found.push(...typeDifferences(store.typeName, field, twin, seen));
  }
  for (const field of api.fields) {
    const flag = field.name.endsWith("_set") && isOutputOnlyField(field);
    if (!store.fields.some((f) => f.name === field.name) && !flag) found.push(`${api.typeName}.${field.name} is not stored`);
  }
  return found;
}

function typeDifferences(owner: string, field: DescField, twin: DescField, seen: Set<string>): string[] {
  if (field.message && twin.message) {
    if (field.message.typeName.startsWith("google.")) return field.message.typeName === twin.message.typeName ? [] : [`${owner}.${field.name} has another type`];
    return differences(field.message, twin.message, seen);
  }
  if (field.enum && twin.enum) {
    const names = (values: readonly { name: string; number: number }[]) => values.map((v) => `${v.name}=${v.number}`).join(",");
    return names(field.enum.values) === names(twin.enum.values) ? [] : [`${owner}.${field.name} has other enum values`];
  }
  const scalar = (f: DescField) => JSON.stringify([(f as { scalar?: number }).scalar, (f as { mapKey?: number }).mapKey]);
  return scalar(field) === scalar(twin) ? [] : [`${owner}.${field.name} has another scalar type`];
}

describe("setting payloads between svc.v1 and the store", () => {
  it("has one stored payload per setting, with the API's field names, JSON names, types and credentials", () => {
    assert.deepEqual(StoreSettingValueSchema.fields.map((f) => f.name).sort(), SETTINGS.map((kind) => kind.name.toLowerCase()).sort());
    for (const kind of SETTINGS) {
      assert.equal(kind.field.jsonName, apiPayloadField(kind).jsonName);
      assert.deepEqual(differences(kind.schema, apiPayloadField(kind).message!), [], kind.name);
    }
  });

  it("stores what a client wrote without output-only fields, and shows credentials only as flags", () => {
    const kind = settingKind("APP_IM");
    const written = create(AppImSettingSchema, {
      settings: [{ type: AppImSetting_Type.TEAMS, enabled: true, teams: { tenantId: "t", clientId: "c", clientSecret: "s", clientSecretSet: true } }],
    });
    const stored = toStorePayload(kind, written);
    assert.equal(stored.$typeName, "svc.store.AppImSetting");
    assert.deepEqual(toJson(kind.schema, stored), { settings: [{ type: "TEAMS", enabled: true, teams: { tenantId: "t", clientId: "c", clientSecret: "s" } }] });
    assert.deepEqual(toJson(AppImSettingSchema, toApiPayload(kind, stored) as never), {
      settings: [{ type: "TEAMS", enabled: true, teams: { clientSecretSet: true, tenantIdSet: true, clientIdSet: true } }],
    });
  });

  it("drops the pause's output-only stamp from a write and shows the stored one", () => {
    const kind = settingKind("EMERGENCY_PAUSE");
    const written = create(EmergencyPauseSettingSchema, { enabled: true, reason: "upgrade", updater: "users/mallory", updateTime: { seconds: 1n } });
    assert.deepEqual(toJson(kind.schema, toStorePayload(kind, written)), { enabled: true, reason: "upgrade" });
    const stored = toStorePayload(kind, create(EmergencyPauseSettingSchema, { enabled: true }));
    Object.assign(stored, { updater: "users/admin" });
    assert.deepEqual(toJson(EmergencyPauseSettingSchema, toApiPayload(kind, stored) as never), { enabled: true, updater: "users/admin" });
  });

  it("tells a write which mask paths are output only, in either name form", () => {
    const email = payloadView(settingKind("EMAIL"));
    assert.equal(email.outputOnly(["smtp", "password_set"]), true);
    assert.equal(email.outputOnly(["smtp", "passwordSet"]), true);
    assert.equal(email.outputOnly(["smtp", "password"]), false);
    assert.equal(email.outputOnly(["smtp", "unknown"]), false);
    assert.equal(email.outputOnly(["from", "below"]), false);
    assert.equal(payloadView(settingKind("EMERGENCY_PAUSE")).outputOnly(["updateTime"]), true);
    const stored = toStorePayload(settingKind("EMAIL"), create(EmailSettingSchema, { from: "a@example.com", smtp: { password: "sealed:v1:x" } }));
    assert.deepEqual(email.present(stored), { from: "a@example.com", smtp: { passwordSet: true } });
  });
});
