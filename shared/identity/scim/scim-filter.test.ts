// Filters and attribute paths as Okta and Microsoft Entra ID write them.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { invalidFilter, invalidPath, ScimError } from "./scim-error.ts";
import { parseAttributePath, parseFilter } from "./scim-filter.ts";

const filter = (text: string) => parseFilter(text, invalidFilter);

function assertRefused(run: () => unknown, scimType: string, message: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ScimError, `expected a ScimError, got ${String(error)}`);
    assert.equal(error.scimType, scimType);
    assert.match(error.message, message);
    return true;
  });
}

describe("SCIM filters", () => {
  it("reads eq comparisons joined by and, in any case, with core schema prefixes dropped", () => {
    assert.deepEqual(filter('userName eq "Alice@Example.com"'), [{ attribute: "username", value: "Alice@Example.com" }]);
    assert.deepEqual(filter('id EQ "g1" AND members eq "bob"'), [
      { attribute: "id", value: "g1" },
      { attribute: "members", value: "bob" },
    ]);
    assert.deepEqual(filter('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "a"'), [{ attribute: "username", value: "a" }]);
    assert.deepEqual(filter("active eq true and externalId eq null and x.y eq 4.5"), [
      { attribute: "active", value: true },
      { attribute: "externalid", value: null },
      { attribute: "x.y", value: 4.5 },
    ]);
    assert.deepEqual(filter('displayName eq "say \\"hi\\" (team)"'), [{ attribute: "displayname", value: 'say "hi" (team)' }]);
  });

  it("reads value paths: a filter alone, or followed by a sub-attribute comparison", () => {
    assert.deepEqual(filter('members[value eq "bob"]'), [{ attribute: "members.value", value: "bob" }]);
    assert.deepEqual(filter('emails[type eq "work"].value eq "a@b.c"'), [
      { attribute: "emails.type", value: "work" },
      { attribute: "emails.value", value: "a@b.c" },
    ]);
  });

  it("refuses what it does not support with invalidFilter, naming it", () => {
    assertRefused(() => filter('userName sw "a"'), "invalidFilter", /operator "sw" is not supported; supported: eq/);
    assertRefused(() => filter('userName eq "a" or userName eq "b"'), "invalidFilter", /or is not supported/);
    assertRefused(() => filter('not (userName eq "a")'), "invalidFilter", /not is not supported/);
    assertRefused(() => filter('(userName eq "a")'), "invalidFilter", /parentheses/);
    assertRefused(() => filter("userName pr"), "invalidFilter", /operator "pr" is not supported/);
    assertRefused(() => filter("userName eq"), "invalidFilter", /needs a value/);
    assertRefused(() => filter('userName eq "a'), "invalidFilter", /not closed/);
    assertRefused(() => filter("userName eq alice"), "invalidFilter", /"alice" is not a value; quote strings/);
    assertRefused(() => filter('a.b.c eq "x"'), "invalidFilter", /not an attribute path/);
    assertRefused(() => filter('userName eq "a" junk'), "invalidFilter", /unexpected "junk"/);
  });
});

describe("SCIM PATCH paths", () => {
  const path = (text: string) => parseAttributePath(text, invalidPath);

  it("reads attributes, sub-attributes, filtered elements and extension attributes", () => {
    assert.deepEqual(path("active"), { attribute: "active", where: undefined, subAttribute: undefined });
    assert.deepEqual(path("name.givenName"), { attribute: "name", where: undefined, subAttribute: "givenname" });
    assert.deepEqual(path('members[value eq "Bob"]'), { attribute: "members", where: [{ attribute: "value", value: "Bob" }], subAttribute: undefined });
    assert.deepEqual(path('emails[type eq "work"].value'), { attribute: "emails", where: [{ attribute: "type", value: "work" }], subAttribute: "value" });
    assert.deepEqual(path("urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department"), {
      attribute: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:user:department",
      where: undefined,
      subAttribute: undefined,
    });
  });

  it("refuses malformed paths with invalidPath", () => {
    assertRefused(() => path('emails[type eq "work"'), "invalidPath", /expected "\]"/);
    assertRefused(() => path("emails[type co \"w\"]"), "invalidPath", /only eq/);
    assertRefused(() => path("name.givenName[value eq 1]"), "invalidPath", /filter applies to an attribute/);
    assertRefused(() => path(""), "invalidPath", /expected an attribute name/);
  });
});
