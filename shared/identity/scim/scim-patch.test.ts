// PATCH operations as Okta and Microsoft Entra ID send them, applied to
// resources in canonical form.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ScimError } from "./scim-error.ts";
import type { JsonObject } from "./scim-json.ts";
import { applyPatch, parsePatch } from "./scim-patch.ts";

const patch = (resource: JsonObject, ...operations: unknown[]) => applyPatch(resource, parsePatch({ Operations: operations }));
const user: JsonObject = {
  username: "alice",
  displayname: "Alice",
  name: { formatted: "Alice" },
  emails: [{ value: "alice@example.com", type: "work", primary: true }],
  active: true,
};
const group: JsonObject = { displayname: "Ops", members: [{ value: "alice" }, { value: "bob" }] };

describe("SCIM PATCH", () => {
  it("applies Okta's forms: a value object without a path, add and filtered remove of members", () => {
    assert.equal(patch(user, { op: "replace", value: { active: false } }).active, false);
    assert.deepEqual(patch(group, { op: "add", path: "members", value: [{ value: "carol", display: "Carol" }, { value: "bob" }] }).members, [
      { value: "alice" },
      { value: "bob" },
      { value: "carol", display: "Carol" },
    ]);
    assert.deepEqual(patch(group, { op: "remove", path: 'members[value eq "alice"]' }).members, [{ value: "bob" }]);
    assert.deepEqual(patch(group, { op: "replace", value: { id: "ops", displayName: "Operations" } }), { ...group, id: "ops", displayname: "Operations" });
  });

  it("applies Entra ID's forms: capitalised ops, string booleans kept for the mapping, remove of listed values, dotted keys", () => {
    assert.equal(patch(user, { op: "Replace", path: "active", value: "False" }).active, "False");
    assert.deepEqual(patch(group, { op: "Remove", path: "members", value: [{ $ref: null, value: "BOB" }] }).members, [{ value: "alice" }]);
    const changed = patch(
      user,
      { op: "Replace", path: 'emails[type eq "work"].value', value: "a@contoso.com" },
      { op: "Add", path: "name.familyName", value: "Ng" },
      { op: "Replace", value: { "name.givenName": "Al" } },
    );
    assert.deepEqual(changed.emails, [{ value: "a@contoso.com", type: "work", primary: true }]);
    assert.deepEqual(changed.name, { formatted: "Alice", familyname: "Ng", givenname: "Al" });
    assert.deepEqual(user.emails, [{ value: "alice@example.com", type: "work", primary: true }], "the resource given is left as it was");
  });

  it("creates the element a filtered path names when none matches, and moves the primary mark to a new primary value", () => {
    const phone = patch(user, { op: "Add", path: 'phoneNumbers[type eq "work"].value', value: "+1 555" });
    assert.deepEqual(phone.phonenumbers, [{ type: "work", value: "+1 555" }]);
    const emails = patch(user, { op: "add", path: "emails", value: { value: "new@example.com", primary: true } }).emails;
    assert.deepEqual(emails, [
      { value: "alice@example.com", type: "work", primary: false },
      { value: "new@example.com", primary: true },
    ]);
  });

  it("removes attributes, sub-attributes, and every member when no value is given", () => {
    assert.equal("displayname" in patch(user, { op: "remove", path: "displayName" }), false);
    assert.deepEqual(patch(user, { op: "remove", path: "name.formatted" }).name, {});
    assert.equal("members" in patch(group, { op: "remove", path: "members" }), false);
  });

  it("refuses malformed operations with the SCIM error type", () => {
    const refused = (body: unknown, scimType: string) =>
      assert.throws(() => parsePatch(body), (error: unknown) => error instanceof ScimError && error.scimType === scimType);
    refused([], "invalidSyntax");
    refused({ Operations: [] }, "invalidSyntax");
    refused({ Operations: ["replace"] }, "invalidSyntax");
    refused({ Operations: [{ op: "copy", path: "active", value: 1 }] }, "invalidSyntax");
    refused({ Operations: [{ op: "remove" }] }, "noTarget");
    refused({ Operations: [{ op: "replace", value: "x" }] }, "invalidSyntax");
    refused({ Operations: [{ op: "replace", path: "active" }] }, "invalidSyntax");
    refused({ Operations: [{ op: "replace", path: 7, value: 1 }] }, "invalidPath");
    refused({ Operations: [{ op: "replace", path: "a b", value: 1 }] }, "invalidPath");
  });
});
