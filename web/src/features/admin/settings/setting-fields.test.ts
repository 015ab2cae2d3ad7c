import { describe, expect, it } from "vitest";
import { changedValues, payloadInit, type SettingField } from "./setting-fields.ts";

const FIELDS: readonly SettingField[] = [
  { path: "title", label: "Title", kind: "text" },
  { path: "watermark", label: "Watermark", kind: "checkbox" },
  { path: "sqlResultSize", label: "Size", kind: "int64" },
  { path: "smtp.port", label: "Port", kind: "int" },
  { path: "smtp.password", label: "Password", kind: "secret", setFlag: "smtp.passwordSet" },
];

const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(entries)) data.set(key, value);
  return data;
};

describe("changedValues", () => {
  const read = { title: "Acme", watermark: false, sqlResultSize: 100n, smtp: { port: 25, passwordSet: true } };

  it("finds nothing when the inputs hold what was read, an empty credential kept", () => {
    expect(changedValues(FIELDS, read, form({ title: " Acme ", sqlResultSize: "100", "smtp.port": "25", "smtp.password": "" })).size).toBe(0);
  });

  it("names each changed path with its typed value, a typed credential among them", () => {
    const changes = changedValues(FIELDS, read, form({ title: "Acme", watermark: "on", sqlResultSize: "200", "smtp.port": "587", "smtp.password": "s3cret" }));
    expect([...changes]).toEqual([
      ["watermark", true],
      ["sqlResultSize", 200n],
      ["smtp.port", 587],
      ["smtp.password", "s3cret"],
    ]);
  });

  it("reads an unset field as empty", () => {
    expect(changedValues(FIELDS, {}, form({ title: "", sqlResultSize: "0", "smtp.port": "0" })).size).toBe(0);
  });
});

describe("payloadInit", () => {
  it("nests the values along their paths", () => {
    expect(payloadInit(new Map<string, unknown>([["title", "x"], ["smtp.port", 25], ["smtp.host", "mail"]]))).toEqual({ title: "x", smtp: { port: 25, host: "mail" } });
  });
});
