// google.api.http templates → find-my-way routes and back.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileTemplate, TemplateError, variableValues } from "../api/transport/rest/path-template.ts";

describe("compileTemplate", () => {
  const cases: [string, string][] = [
    ["/v1/actuator/info", "/v1/actuator/info"],
    ["/v1/{name=projects/*/issues/*}", "/v1/projects/:p0(^[^/:]+)/issues/:p1(^[^/:]+)"],
    ["/v1/{name=projects/*/issues/*}:approve", "/v1/projects/:p0(^[^/:]+)/issues/:p1(^[^/:]+)::approve"],
    ["/v1/{resource=workspaces/*}:getIamPolicy", "/v1/workspaces/:p0(^[^/:]+)::getIamPolicy"],
    ["/v1/users:unlock", "/v1/users::unlock"],
    ["/v1/{setting.name=settings/*}", "/v1/settings/:p0(^[^/:]+)"],
    ["/v1/projects/{project}", "/v1/projects/:p0(^[^/:]+)"],
    ["/v1/{name=files/**}", "/v1/files/*"],
  ];
  for (const [template, url] of cases) {
    it(`${template} → ${url}`, () => assert.equal(compileTemplate(template).url, url));
  }

  it("rebuilds variable values from route parameters", () => {
    const compiled = compileTemplate("/v1/{name=projects/*/rollouts/*}:advance");
    assert.deepEqual([...variableValues(compiled, { p0: "p1", p1: "42" })], [["name", "projects/p1/rollouts/42"]]);
    const workspace = compileTemplate("/v1/{resource=workspaces/*}:getIamPolicy");
    assert.deepEqual([...variableValues(workspace, { p0: "-" })], [["resource", "workspaces/-"]]);
    const nested = compileTemplate("/v1/{setting.name=settings/*}");
    assert.deepEqual([...variableValues(nested, { p0: "WORKSPACE_PROFILE" })], [["setting.name", "settings/WORKSPACE_PROFILE"]]);
  });

  for (const bad of ["v1/no-slash", "/v1/{name=files/**}:verb", "/v1/{unbalanced", "/v1/sp ace"]) {
    it(`refuses ${bad}`, () => assert.throws(() => compileTemplate(bad), TemplateError));
  }
});
