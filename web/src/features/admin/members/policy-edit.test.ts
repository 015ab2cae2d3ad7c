import { create } from "@bufbuild/protobuf";
import { BindingSchema } from "@gen/svc/v1/iam_policy_pb.js";
import { describe, expect, it } from "vitest";
import { grant, memberLabel, memberOf, revoke } from "./policy-edit.ts";

const admin = create(BindingSchema, { role: "roles/workspaceAdmin", members: ["user:login_id=admin"] });
const plain = (bindings: ReturnType<typeof grant>) => bindings.map((b) => [b.role, b.members, b.condition?.expression ?? ""]);

describe("policy edits", () => {
  it("grants into the binding of the same role and expiry, else a new one", () => {
    const ann = memberOf("user", " Ann ");
    expect(ann).toBe("user:login_id=ann");
    const once = grant([admin], ann, "roles/workspaceAdmin");
    expect(plain(once)).toEqual([["roles/workspaceAdmin", ["user:login_id=admin", ann], ""]]);
    expect(plain(grant(once, ann, "roles/workspaceAdmin"))).toEqual(plain(once));
    const until = new Date("2030-01-02T03:04:05Z");
    expect(plain(grant(once, memberOf("group", "dba"), "roles/workspaceAdmin", until))).toEqual([
      ["roles/workspaceAdmin", ["user:login_id=admin", ann], ""],
      ["roles/workspaceAdmin", ["group:dba"], 'request.time < timestamp("2030-01-02T03:04:05.000Z")'],
    ]);
  });

  it("revokes one member of one binding and drops a binding left empty", () => {
    const both = grant(grant([admin], "allUsers", "roles/workspaceMember"), "user:login_id=bob", "roles/workspaceMember");
    expect(plain(revoke(both, 1, "allUsers"))).toEqual([
      ["roles/workspaceAdmin", ["user:login_id=admin"], ""],
      ["roles/workspaceMember", ["user:login_id=bob"], ""],
    ]);
    expect(plain(revoke(both, 0, "user:login_id=admin"))).toEqual([["roles/workspaceMember", ["allUsers", "user:login_id=bob"], ""]]);
    expect([memberLabel("user:login_id=bob"), memberLabel("group:dba"), memberLabel("allUsers")]).toEqual(["bob", "group dba", "everyone signed in"]);
  });
});
