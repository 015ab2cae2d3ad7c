// SettingService (contract §7, §3.4, §15.8): effective values with the
// specification's defaults, masked writes that change exactly the named
// fields, validation naming the field, credentials sealed at rest and never
// returned, etags, SYSTEM out of reach, and an audit record per change.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { SettingService } from "../shared/gen/svc/v1/setting_service_pb.js";
import { MaintenanceWindowSettingSchema } from "../shared/gen/svc/v1/setting_operations_pb.js";
import { WorkspaceProfileSettingSchema } from "../shared/gen/svc/v1/setting_workspace_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { startSmtpPeer } from "./helpers/smtp.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;

describe("settings", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let admin = "";
  let member = "";

  const get = (name: string, token = admin) => rest<Json>("GET", `/v1/settings/${name}`, { token });
  const patch = (name: string, value: Json, updateMask: string, token = admin, extra: Json = {}) =>
    rest<Json>("PATCH", `/v1/settings/${name}?updateMask=${encodeURIComponent(updateMask)}`, { token, body: { value, ...extra } });
  const ok = <T>(reply: { status: number; body: T }): T => {
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };
  const refused = (reply: { status: number; body: Json }, status: number, message: RegExp) => {
    assert.equal(reply.status, status, JSON.stringify(reply.body));
    assert.match(reply.body.message, message);
  };
  const storedValue = async (name: string) => (await adminQuery(`select value from setting where name = '${name}'`, app.database.url)).rows[0]?.value as Json;

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN, flags: [] });
    rest = restClient(app.baseUrl);
    admin = await signInFirstAdmin(rest);
    await makeUser(app.db, "member");
    member = await signIn(rest, "member");
  });
  after(() => app.close());

  it("reads WORKSPACE_PROFILE with every default of the specification filled in", async () => {
    const setting = ok(await get("WORKSPACE_PROFILE", member));
    assert.equal(setting.name, "settings/WORKSPACE_PROFILE");
    assert.deepEqual(setting.value.workspaceProfile, {
      title: "Workspace",
      externalUrl: "",
      disallowSignup: false,
      require2fa: false,
      refreshTokenDuration: "604800s",
      accessTokenDuration: "3600s",
      inactiveSessionTimeout: "0s",
      maximumRoleExpiration: "0s",
      enforceIdentityDomain: false,
      databaseChangeMode: "PIPELINE",
      disallowPasswordSignin: false,
      enableAuditLogStdout: false,
      watermark: false,
      directorySyncTokenSet: false,
      passwordRestriction: {
        minLength: 12,
        requireNumber: true,
        requireLetter: true,
        requireUppercaseLetter: true,
        requireSpecialCharacter: true,
        requireResetPasswordForFirstLogin: true,
        passwordRotation: "7776000s",
      },
      sqlResultSize: "104857600",
      queryTimeout: "0s",
      allowEmailCodeSignin: false,
      disallowSelfApprovalDefault: true,
      queryHistoryRetention: "7776000s",
      notificationDeliveryRetention: "2592000s",
    });
  });

  it("lists every setting but SYSTEM, refuses SYSTEM and names the known settings for an unknown one", async () => {
    const names = ok(await rest<Json>("GET", "/v1/settings", { token: member })).settings.map((s: Json) => s.name);
    assert.equal(names.length, 12);
    assert.ok(!names.includes("settings/SYSTEM"));
    assert.ok(names.includes("settings/ENVIRONMENT"));
    refused(await get("SYSTEM"), 403, /internal/);
    refused(await patch("SYSTEM", {}, "*"), 403, /internal|permission/);
    refused(await get("NOPE"), 400, /unknown setting.*settings\/WORKSPACE_PROFILE/);
    assert.equal((await rest("GET", "/v1/settings/ENVIRONMENT")).status, 401);
  });

  it("shows the default environments and approval rule", async () => {
    const envs = ok(await get("ENVIRONMENT")).value.environment.environments;
    assert.deepEqual(envs.map((e: Json) => [e.id, e.rolloutPolicy, e.protected]), [["test", "AUTOMATIC", false], ["prod", "MANUAL", true]]);
    const rules = ok(await get("WORKSPACE_APPROVAL")).value.workspaceApproval.rules;
    assert.equal(rules[0].condition.expression, 'resource.environment_id == "prod"');
    assert.deepEqual(rules[0].template.steps, [{ roles: ["roles/projectOwner"] }]);
  });

  it("changes exactly the masked fields, in any accepted path form", async () => {
    let profile = ok(await patch("WORKSPACE_PROFILE", { workspaceProfile: { passwordRestriction: { minLength: 14, requireNumber: false }, title: "Ignored" } }, "workspaceProfile.passwordRestriction.minLength")).value.workspaceProfile;
    assert.equal(profile.passwordRestriction.minLength, 14);
    assert.equal(profile.passwordRestriction.requireNumber, true);
    assert.equal(profile.title, "Workspace");
    profile = ok(await patch("WORKSPACE_PROFILE", { workspaceProfile: { title: "Acme", access_token_duration: "2h" } }, "value.workspace_profile.title,workspaceProfile.accessTokenDuration")).value.workspaceProfile;
    assert.equal(profile.title, "Acme");
    assert.equal(profile.accessTokenDuration, "7200s");
    assert.equal(profile.passwordRestriction.minLength, 14);
    // A path naming a sub-message replaces it whole: unset fields fall back to their defaults.
    profile = ok(await patch("WORKSPACE_PROFILE", { workspaceProfile: { passwordRestriction: { requireLetter: false } } }, "workspaceProfile.passwordRestriction")).value.workspaceProfile;
    assert.equal(profile.passwordRestriction.requireLetter, false);
    assert.equal(profile.passwordRestriction.minLength, 12);
    assert.equal(profile.title, "Acme");
    assert.deepEqual(await storedValue("WORKSPACE_PROFILE").then((v) => v.title), "Acme");
  });

  it("accepts the short durations and answers them in proto JSON", async () => {
    const reply = ok(await patch("WORKSPACE_PROFILE", { workspaceProfile: { refreshTokenDuration: "7d", maximumRoleExpiration: "90d", passwordRestriction: { passwordRotation: "180d" } } }, "workspaceProfile.refreshTokenDuration,workspaceProfile.maximumRoleExpiration,workspaceProfile.passwordRestriction.passwordRotation"));
    const profile = reply.value.workspaceProfile;
    assert.deepEqual([profile.refreshTokenDuration, profile.maximumRoleExpiration, profile.passwordRestriction.passwordRotation], ["604800s", "7776000s", "15552000s"]);
    const retention = ok(await patch("WORKSPACE_PROFILE", { workspaceProfile: { queryHistoryRetention: "30d" } }, "workspaceProfile.queryHistoryRetention"));
    assert.equal(retention.value.workspaceProfile.queryHistoryRetention, "2592000s");
    refused(await patch("WORKSPACE_PROFILE", { workspaceProfile: { queryHistoryRetention: "a month" } }, "workspaceProfile.queryHistoryRetention"), 400, /workspaceProfile\.queryHistoryRetention.*invalid duration/);
  });

  it("refuses invalid payloads and masks with invalid_argument naming the field", async () => {
    refused(await patch("WORKSPACE_PROFILE", { workspaceProfile: { passwordRestriction: { minLength: 7 } } }, "workspaceProfile.passwordRestriction.minLength"), 400, /workspaceProfile\.passwordRestriction\.minLength must be ≥ 8/);
    refused(await patch("WORKSPACE_PROFILE", { workspaceProfile: { accessTokenDuration: "soon" } }, "workspaceProfile.accessTokenDuration"), 400, /workspaceProfile\.accessTokenDuration.*invalid duration/);
    refused(await patch("WORKSPACE_PROFILE", { workspaceProfile: { databaseChangeMode: "SOMETIMES" } }, "workspaceProfile.databaseChangeMode"), 400, /DatabaseChangeMode.*SOMETIMES/);
    refused(await patch("WORKSPACE_PROFILE", { workspaceProfile: {} }, "workspaceProfile.colour"), 400, /workspaceProfile\.colour" is not a field/);
    // Unknown paths are named as the client wrote them, not in snake_case (§1.3).
    refused(await patch("WORKSPACE_PROFILE", { workspaceProfile: {} }, "workspaceProfile.noSuchField"), 400, /"workspaceProfile\.noSuchField" is not a field/);
    refused(await patch("WORKSPACE_PROFILE", { workspaceProfile: {} }, "workspaceProfile.passwordRestriction.maxAgeDays"), 400, /"workspaceProfile\.passwordRestriction\.maxAgeDays" is not a field/);
    refused(await patch("WORKSPACE_PROFILE", { workspaceProfile: {} }, "workspaceProfil.title"), 400, /"workspaceProfil\.title" is not a field of workspaceProfile/);
    refused(await patch("WORKSPACE_PROFILE", { workspaceProfile: {} }, "workspaceProfile.title.x"), 400, /has no fields below it/);
    refused(await patch("EMERGENCY_PAUSE", { emergencyPause: { updater: "users/mallory" } }, "emergencyPause.updater"), 400, /field "emergencyPause\.updater" is output only/);
    refused(await patch("EMAIL", { email: { smtp: { passwordSet: true } } }, "email.smtp.password_set"), 400, /field "email\.smtp\.passwordSet" is output only/);
    refused(await patch("WORKSPACE_PROFILE", { workspaceProfile: { title: { text: "x" } } }, "workspaceProfile.title"), 400, /WorkspaceProfileSetting\.title from JSON: expected string/);
    refused(await rest<Json>("PATCH", "/v1/settings/WORKSPACE_PROFILE?updateMask=*", { token: admin, body: { value: "Acme" } }), 400, /cannot decode message svc\.v1\.SettingValue/);
    refused(await rest<Json>("PATCH", "/v1/settings/WORKSPACE_PROFILE", { token: admin, body: { value: { workspaceProfile: { title: "x" } } } }), 400, /update_mask is required/);
    refused(await patch("WORKSPACE_PROFILE", { emergencyPause: { enabled: true } }, "*"), 400, /takes value\.workspaceProfile/);
    refused(await patch("MAINTENANCE_WINDOW", { maintenanceWindow: { enabled: true } }, "maintenanceWindow.enabled"), 400, /maintenanceWindow\.windows needs at least one window/);
    refused(await patch("MAINTENANCE_WINDOW", { maintenanceWindow: { timezone: "Mars/Olympus" } }, "maintenanceWindow.timezone"), 400, /maintenanceWindow\.timezone/);
    refused(await patch("EMERGENCY_PAUSE", { emergencyPause: { enabled: true } }, "*"), 400, /emergencyPause\.reason is required/);
    refused(await patch("WORKSPACE_APPROVAL", { workspaceApproval: { rules: [{ source: "CHANGE_DATABASE", condition: { expression: "resource.environment_id ==" }, template: { steps: [] } }] } }, "*"), 400, /rules\[0\]\.condition\.expression does not compile/);
    refused(await patch("WORKSPACE_APPROVAL", { workspaceApproval: { rules: [{ source: "CHANGE_DATABASE", condition: { expression: "resource.colour == 1" }, template: { steps: [] } }] } }, "*"), 400, /does not compile/);
    refused(await patch("WORKSPACE_APPROVAL", { workspaceApproval: { rules: [{ source: "CHANGE_DATABASE", condition: { expression: "true" }, template: { steps: [{ roles: ["roles/securityOfficer"] }] } }] } }, "*"), 400, /never counts as an approver/);
    refused(await patch("WORKSPACE_APPROVAL", { workspaceApproval: { rules: [{ source: "CHANGE_DATABASE", condition: { expression: "true" }, template: { steps: [{ roles: ["roles/nobody"] }] } }] } }, "*"), 400, /unknown role "roles\/nobody"/);
    refused(await patch("ENVIRONMENT", { environment: { environments: [{ id: "dev", rolloutPolicy: "AUTOMATIC" }, { id: "dev", rolloutPolicy: "MANUAL" }] } }, "*"), 400, /environments\[1\]\.id repeats/);
    assert.equal(ok(await get("WORKSPACE_PROFILE")).value.workspaceProfile.passwordRestriction.minLength, 12);
  });

  it("stores a valid approval rule and environments list", async () => {
    const rules = [{ source: "CHANGE_DATABASE", condition: { expression: 'resource.environment_id == "prod" && statement.affected_rows > 100' }, template: { title: "Two steps", steps: [{ roles: ["roles/projectOwner"] }, { roles: ["roles/workspaceDBA"] }] } }];
    assert.equal(ok(await patch("WORKSPACE_APPROVAL", { workspaceApproval: { rules } }, "workspaceApproval.rules")).value.workspaceApproval.rules[0].template.steps.length, 2);
    const envs = [{ id: "dev", title: "Dev", rolloutPolicy: "AUTOMATIC" }, { id: "prod", rolloutPolicy: "MANUAL", protected: true }];
    assert.deepEqual(ok(await patch("ENVIRONMENT", { environment: { environments: envs } }, "*")).value.environment.environments.map((e: Json) => e.title), ["Dev", "prod"]);
  });

  it("refuses review rules of unknown types or with bad payloads, naming the field (§10.4)", async () => {
    const withRules = (rules: Json[]) => patch("ENVIRONMENT", { environment: { environments: [{ id: "dev", rolloutPolicy: "AUTOMATIC", sqlReview: { rules } }] } }, "*");
    refused(await withRules([{ type: "statement.no-such-rule", level: "ERROR" }]), 400, /environments\[0\]\.sqlReview\.rules\[0\]\.type "statement\.no-such-rule" is not a review rule/);
    refused(await withRules([{ type: "statement.insert-row-limit", level: "ERROR", payload: { max: 0 } }]), 400, /environments\[0\]\.sqlReview\.rules\[0\]\.payload\.max must be an integer ≥ 1/);
    const stored = ok(await withRules([{ type: "statement.insert-row-limit", level: "WARNING", payload: { max: 500 } }])).value.environment.environments[0].sqlReview.rules;
    assert.deepEqual(stored, [{ type: "statement.insert-row-limit", level: "WARNING", payload: { max: 500 } }]);
  });

  const approval = (expression: string, roles = ["roles/projectOwner"]) =>
    patch("WORKSPACE_APPROVAL", { workspaceApproval: { rules: [{ source: "CHANGE_DATABASE", condition: { expression }, template: { steps: [{ roles }] } }] } }, "*");

  it("checks every name a condition uses, also where evaluation would stop early", async () => {
    refused(await approval("false && resource.colour == 1"), 400, /condition\.expression does not compile: resource has no field "colour"; known: resource\.environment_id/);
    refused(await approval("true || statment.affected_rows > 1"), 400, /unknown variable "statment"; known: resource, statement, plan_check, issue/);
    refused(await approval('false && resource["colour"] == "x"'), 400, /resource has no field "colour"/);
    refused(await approval("false && has(plan_check.level)"), 400, /plan_check has no field "level"/);
    refused(await approval('["a"].exists(p, p == resource.project_id) || issue.author == "x"'), 400, /issue has no field "author"/);
    refused(await approval("statement.affected_rows"), 400, /must be true or false/);
    const expression = '["a", "b"].exists(p, p == resource.project_id) || (plan_check.max_level == "ERROR" && resource["db_engine"] == "MYSQL")';
    assert.equal(ok(await approval(expression)).value.workspaceApproval.rules[0].condition.expression, expression);
  });

  it("stores approver roles by their canonical names, in any letter case, and refuses roles that never approve", async () => {
    refused(await approval("true", ["roles/securityofficer"]), 400, /steps\[0\]\.roles\[0\] may not name roles\/securityOfficer: it never counts as an approver/);
    refused(await approval("true", ["roles/projectOwner", "roles/READONLYAUDITOR"]), 400, /roles\[1\] may not name roles\/readOnlyAuditor/);
    refused(await approval("true", ["projectOwner"]), 400, /unknown role "projectOwner"/);
    const created = await rest<Json>("POST", "/v1/roles?roleId=releaseManager", { token: admin, body: { title: "Release manager", permissions: ["bb.issues.get"] } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const roles = ["roles/projectOwner", "roles/WORKSPACEDBA", "roles/releasemanager"];
    const steps = ok(await approval("true", roles)).value.workspaceApproval.rules[0].template.steps;
    assert.deepEqual(steps, [{ roles: ["roles/projectOwner", "roles/workspaceDBA", "roles/releaseManager"] }]);
    assert.deepEqual((await storedValue("WORKSPACE_APPROVAL")).rules[0].template.steps, steps);
  });

  it("validates SSO_GROUP_MAPPING names and stores its roles canonically", async () => {
    const mapping = (binding: Json, idp = "idps/corp") => patch("SSO_GROUP_MAPPING", { ssoGroupMapping: { mappings: [{ idp, group: "dba", bindings: [binding] }] } }, "ssoGroupMapping.mappings");
    refused(await mapping({ role: "roles/workspaceDBA", scope: "workspaces/-" }, "idp/corp"), 400, /ssoGroupMapping\.mappings\[0\]\.idp: "idp\/corp" is not a valid name/);
    refused(await mapping({ role: "roles/workspaceDBA", scope: "workspaces/-" }, "idps/Corp"), 400, /mappings\[0\]\.idp/);
    refused(await mapping({ role: "roles/nobody", scope: "workspaces/-" }), 400, /mappings\[0\]\.bindings\[0\]\.role names unknown role "roles\/nobody"/);
    refused(await mapping({ role: "roles/workspaceDBA", scope: "projects/Billing" }), 400, /bindings\[0\]\.scope: "projects\/Billing" is not a valid name/);
    refused(await mapping({ role: "roles/workspaceDBA", scope: "orgs/acme" }), 400, /bindings\[0\]\.scope must be workspaces\/- or projects\/<project_id>/);
    refused(await mapping({ role: "roles/workspaceDBA" }), 400, /bindings\[0\]\.scope is required/);
    const stored = ok(await mapping({ role: "roles/workspacedba", scope: "projects/billing" })).value.ssoGroupMapping.mappings[0];
    assert.deepEqual(stored, { idp: "idps/corp", group: "dba", bindings: [{ role: "roles/workspaceDBA", scope: "projects/billing" }] });
  });

  it("validates DATA_CLASSIFICATION and SEMANTIC_TYPES", async () => {
    const config = (extra: Json = {}) => ({ id: "c1", levels: [{ id: "L1", level: 1 }, { id: "L2", level: 2 }], classifications: { "1": { id: "1", level: "L2" } }, ...extra });
    const classification = (configs: Json[]) => patch("DATA_CLASSIFICATION", { dataClassification: { configs } }, "*");
    refused(await classification([config(), config({ id: "c2" })]), 400, /dataClassification\.configs holds one configuration/);
    refused(await classification([config({ id: "" })]), 400, /configs\[0\]\.id is required/);
    refused(await classification([config({ levels: [{ id: "L1" }, { id: "L1" }] })]), 400, /configs\[0\]\.levels\[1\]\.id repeats the id "L1"/);
    refused(await classification([config({ classifications: { "1": { id: "2" } } })]), 400, /classifications\["1"\]\.id must equal its key "1"/);
    refused(await classification([config({ classifications: { "1": { level: "L9" } } })]), 400, /classifications\["1"\]\.level names unknown level "L9"/);
    assert.deepEqual(ok(await classification([config()])).value.dataClassification.configs[0].classifications, { "1": { id: "1", level: "L2" } });

    const types = (list: Json[]) => patch("SEMANTIC_TYPES", { semanticTypes: { types: list } }, "semanticTypes.types");
    refused(await types([{ title: "no id" }]), 400, /semanticTypes\.types\[0\]\.id is required/);
    refused(await types([{ id: "t", algorithm: { rangeMask: { slices: [{ start: 4, end: 2 }] } } }]), 400, /types\[0\]\.algorithm\.rangeMask\.slices\[0\] needs 0 ≤ start ≤ end/);
    refused(await types([{ id: "t", algorithm: { innerOuterMask: { prefixLen: 1 } } }]), 400, /types\[0\]\.algorithm\.innerOuterMask\.type is required/);
    refused(await types([{ id: "t", algorithm: { innerOuterMask: { prefixLen: -1, type: "INNER" } } }]), 400, /innerOuterMask lengths must not be negative/);
    refused(await types([{ id: "t" }, { id: "t" }]), 400, /types\[1\]\.id repeats the id "t"/);
    const stored = ok(await types([{ id: "email", algorithm: { innerOuterMask: { prefixLen: 1, suffixLen: 4, type: "OUTER" } } }])).value.semanticTypes.types;
    assert.deepEqual(stored, [{ id: "email", algorithm: { innerOuterMask: { prefixLen: 1, suffixLen: 4, type: "OUTER" } } }]);
  });

  it("checks ids, sender addresses and ports with the workspace's rules", async () => {
    const env = (id: string) => patch("ENVIRONMENT", { environment: { environments: [{ id, rolloutPolicy: "MANUAL" }] } }, "*");
    refused(await env(`e${"x".repeat(63)}`), 400, /environments\[0\]\.id .* \(at most 63\)/);
    assert.equal(ok(await env(`e${"x".repeat(62)}`)).value.environment.environments[0].id.length, 63);
    refused(await patch("EMAIL", { email: { from: "not an address" } }, "email.from"), 400, /email\.from: "not an address" is not an e-mail address/);
    refused(await patch("EMAIL", { email: { smtp: { host: "h", port: 70000 } } }, "email.smtp"), 400, /email\.smtp\.port must be ≤ 65535, got 70000/);
    assert.equal(ok(await patch("EMAIL", { email: { from: " Ops@Example.com " } }, "email.from")).value.email.from, "ops@example.com");
  });

  it("keeps each webhook's secret by URL and drops it with the URL", async () => {
    const write = (webhooks: Json[]) => patch("MONITORING", { monitoring: { webhooks } }, "monitoring.webhooks");
    ok(await write([{ url: "https://a.example.com/hook", secret: "hook-Secret-A", events: ["issue.created"] }, { url: "https://b.example.com/hook", secret: "hook-Secret-B" }]));
    const before = (await storedValue("MONITORING")).webhooks;
    assert.match(before[1].secret, /^sealed:v1:/);
    const reply = ok(await write([{ url: "https://b.example.com/hook", events: ["rollout.failed"] }, { url: "https://c.example.com/hook" }]));
    assert.deepEqual(reply.value.monitoring.webhooks, [
      { url: "https://b.example.com/hook", secretSet: true, events: ["rollout.failed"] },
      { url: "https://c.example.com/hook", secretSet: false },
    ]);
    const after = (await storedValue("MONITORING")).webhooks;
    assert.equal(after[0].secret, before[1].secret);
    assert.equal(after[1].secret, undefined);
    assert.ok(!JSON.stringify(after).includes("hook-Secret"));
    refused(await write([{ url: "https://b.example.com/hook", events: ["issue.exploded"] }]), 400, /monitoring\.webhooks\[0\]\.events\[0\] "issue\.exploded" is not an event/);
    refused(await write([{ url: "ftp://b.example.com/hook" }]), 400, /monitoring\.webhooks\[0\]\.url must be an http\(s\) URL/);
  });

  it("lets concurrent writes without etag of different fields both land", async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([
        patch("WORKSPACE_PROFILE", { workspaceProfile: { title: `Round ${round}` } }, "workspaceProfile.title"),
        patch("WORKSPACE_PROFILE", { workspaceProfile: { announcement: { level: "INFO", text: `note ${round}` } } }, "workspaceProfile.announcement"),
      ]);
      ok(a);
      ok(b);
      const profile = ok(await get("WORKSPACE_PROFILE")).value.workspaceProfile;
      assert.deepEqual([profile.title, profile.announcement?.text], [`Round ${round}`, `note ${round}`]);
    }
  });

  it("requires bb.settings.set to write, while any signed-in user reads", async () => {
    refused(await patch("WORKSPACE_PROFILE", { workspaceProfile: { title: "Mine" } }, "workspaceProfile.title", member), 403, /bb\.settings\.set/);
    ok(await get("EMAIL", member));
  });

  it("seals credentials at rest, never returns them, keeps them when a write omits them and clears them on \"\"", async () => {
    const smtp = { host: "smtp.example.com", port: 2525, username: "mailer", password: "smtp-Secret-1" };
    let email = ok(await patch("EMAIL", { email: { from: "svc@example.com", smtp } }, "email")).value.email;
    assert.equal(email.smtp.passwordSet, true);
    assert.equal(email.smtp.password, undefined);
    const stored = await storedValue("EMAIL");
    assert.match(stored.smtp.password, /^sealed:v1:/);
    assert.ok(!JSON.stringify(stored).includes("smtp-Secret-1"));
    email = ok(await patch("EMAIL", { email: { smtp: { ...smtp, password: undefined, port: 587 } } }, "email.smtp")).value.email;
    assert.equal(email.smtp.passwordSet, true);
    assert.equal(email.smtp.port, 587);
    assert.equal((await storedValue("EMAIL")).smtp.password, stored.smtp.password);
    email = ok(await patch("EMAIL", { email: { smtp: { password: "" } } }, "email.smtp.password")).value.email;
    assert.equal(email.smtp.passwordSet, false);
    assert.equal((await storedValue("EMAIL")).smtp.password, undefined);
    const audit = (await adminQuery(`select request, response, detail from audit_log where action = 'bb.settings.set' and resource = 'settings/EMAIL' and status_code = 'ok' order by id`, app.database.url)).rows.slice(-3);
    assert.equal(audit.length, 3);
    assert.ok(audit.every((r: Json) => !JSON.stringify(r).includes("smtp-Secret-1")));
    assert.match(audit[0].request, /"password":"\*\*\*"/);
    assert.deepEqual(audit[2].detail.changes, [{ field: "email.smtp.passwordSet", old: true, new: false }]);
  });

  it("keeps each IM entry's credentials by type when the list is rewritten", async () => {
    const write = (settings: Json[]) => patch("APP_IM", { appIm: { settings } }, "appIm.settings");
    ok(await write([{ type: "SLACK", enabled: true, slack: { token: "xoxb-1" } }, { type: "TELEGRAM", telegram: { botToken: "bot-1", chatId: "42" } }]));
    const reply = ok(await write([{ type: "TELEGRAM", enabled: true, telegram: { chatId: "43" } }, { type: "SLACK", enabled: false, slack: {} }]));
    assert.deepEqual(reply.value.appIm.settings, [
      { type: "TELEGRAM", enabled: true, telegram: { botTokenSet: true, chatIdSet: true } },
      { type: "SLACK", enabled: false, slack: { tokenSet: true } },
    ]);
    refused(await write([{ type: "SLACK" }, { type: "SLACK" }]), 400, /appIm\.settings\[1\]\.type repeats/);
  });

  it("never returns an IM credential: ids, codes and chats are input-only like the secrets (§7.4)", async () => {
    const settings = [
      { type: "FEISHU", feishu: { appId: "canary-feishu-app", appSecret: "canary-feishu-secret" } },
      { type: "WECOM", wecom: { corpId: "canary-corp", agentId: "canary-agent", secret: "canary-wecom-secret" } },
      { type: "LARK", lark: { appId: "canary-lark-app", appSecret: "canary-lark-secret" } },
      { type: "DINGTALK", dingtalk: { clientId: "canary-ding-client", clientSecret: "canary-ding-secret", robotCode: "canary-robot" } },
      { type: "TEAMS", teams: { tenantId: "canary-tenant", clientId: "canary-teams-client", clientSecret: "canary-teams-secret" } },
      { type: "TELEGRAM", telegram: { botToken: "canary-bot", chatId: "canary-chat" } },
    ];
    const written = ok(await patch("APP_IM", { appIm: { settings } }, "appIm.settings"));
    const expected = [
      { type: "FEISHU", feishu: { appIdSet: true, appSecretSet: true } },
      { type: "WECOM", wecom: { corpIdSet: true, agentIdSet: true, secretSet: true } },
      { type: "LARK", lark: { appIdSet: true, appSecretSet: true } },
      { type: "DINGTALK", dingtalk: { clientIdSet: true, clientSecretSet: true, robotCodeSet: true } },
      { type: "TEAMS", teams: { tenantIdSet: true, clientIdSet: true, clientSecretSet: true } },
      { type: "TELEGRAM", telegram: { botTokenSet: true, chatIdSet: true } },
    ];
    const shown = (entries: Json[]) => entries.map(({ enabled: _, ...entry }) => entry);
    assert.deepEqual(shown(written.value.appIm.settings), expected);
    assert.deepEqual(shown(ok(await get("APP_IM")).value.appIm.settings), expected);
    const client = createClient(SettingService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const viaConnect = await client.getSetting({ name: "settings/APP_IM" }, { headers: { authorization: `Bearer ${admin}` } });
    assert.doesNotMatch(JSON.stringify(viaConnect.value), /canary/);
    assert.doesNotMatch(JSON.stringify(await storedValue("APP_IM")), /canary/, "sealed at rest");
    const audit = (await adminQuery(`select request, response, detail from audit_log where resource = 'settings/APP_IM'`, app.database.url)).rows;
    assert.ok(audit.length > 0);
    assert.doesNotMatch(JSON.stringify(audit), /canary/);
    // A rewrite that leaves the ids out keeps them; "" removes one.
    const kept = ok(await patch("APP_IM", { appIm: { settings: [{ type: "TELEGRAM", enabled: true, telegram: { chatId: "" } }] } }, "appIm.settings"));
    assert.deepEqual(kept.value.appIm.settings, [{ type: "TELEGRAM", enabled: true, telegram: { botTokenSet: true, chatIdSet: false } }]);
  });

  it("refuses a stale etag with aborted", async () => {
    const { etag } = ok(await patch("AI", { ai: { enabled: true, provider: "OPENAI", apiKey: "sk-1" } }, "ai"));
    const next = ok(await patch("AI", { ai: { model: "gpt" } }, "ai.model", admin, { etag }));
    assert.notEqual(next.etag, etag);
    refused(await patch("AI", { ai: { model: "x" } }, "ai.model", admin, { etag }), 409, /etag/);
  });

  it("stamps the emergency pause with who switched it and when", async () => {
    const pause = ok(await patch("EMERGENCY_PAUSE", { emergencyPause: { enabled: true, reason: "incident 42", updater: "users/mallory" } }, "*")).value.emergencyPause;
    assert.equal(pause.updater, "users/admin");
    assert.ok(Date.parse(pause.updateTime) > Date.now() - 60_000);
  });

  it("serves the same over Connect and gRPC", async () => {
    const client = createClient(SettingService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const headers = { authorization: `Bearer ${admin}` };
    const got = await client.getSetting({ name: "settings/WORKSPACE_PROFILE" }, { headers });
    assert.equal(got.value?.value.case, "workspaceProfile");
    await assert.rejects(client.getSetting({ name: "WORKSPACE_PROFILE" }, { headers }), (e: ConnectError) => e.code === Code.InvalidArgument && /unknown setting "WORKSPACE_PROFILE"/.test(e.message));
    await assert.rejects(client.getSetting({ name: "SYSTEM" }, { headers }), (e: ConnectError) => e.code === Code.InvalidArgument);
    const grpc = createClient(SettingService, createGrpcTransport({ baseUrl: app.baseUrl }));
    const viaGrpc = await grpc.updateSetting(
      {
        setting: { name: "settings/MAINTENANCE_WINDOW", value: { value: { case: "maintenanceWindow", value: create(MaintenanceWindowSettingSchema, { timezone: "Europe/Berlin" }) } } },
        updateMask: { paths: ["maintenance_window.timezone"] },
      },
      { headers },
    );
    assert.equal(viaGrpc.value?.value.case === "maintenanceWindow" && viaGrpc.value.value.value.timezone, "Europe/Berlin");
    assert.equal((await storedValue("MAINTENANCE_WINDOW")).timezone, "Europe/Berlin");
    const updated = await client.updateSetting(
      {
        setting: { name: "settings/WORKSPACE_PROFILE", value: { value: { case: "workspaceProfile", value: create(WorkspaceProfileSettingSchema, { watermark: true }) } } },
        updateMask: { paths: ["workspace_profile.watermark"] },
      },
      { headers },
    );
    assert.equal(updated.value?.value.case === "workspaceProfile" && updated.value.value.value.watermark, true);
    await assert.rejects(
      client.updateSetting(
        {
          setting: { name: "settings/WORKSPACE_PROFILE", value: { value: { case: "workspaceProfile", value: create(WorkspaceProfileSettingSchema, { passwordRestriction: { minLength: 4 } }) } } },
          updateMask: { paths: ["workspace_profile.password_restriction.min_length"] },
        },
        { headers },
      ),
      (e: ConnectError) => e.code === Code.InvalidArgument && /minLength/.test(e.message),
    );
    await assert.rejects(
      client.updateSetting(
        {
          setting: { name: "settings/WORKSPACE_PROFILE", value: { value: { case: "workspaceProfile", value: create(WorkspaceProfileSettingSchema, {}) } } },
          updateMask: { paths: ["workspace_profile.no_such_field"] },
        },
        { headers },
      ),
      (e: ConnectError) => e.code === Code.InvalidArgument && e.rawMessage === 'update_mask: "workspaceProfile.noSuchField" is not a field',
    );
  });
});

describe("settings with --external-url", () => {
  it("shows the flag's URL and refuses to change the stored one", async () => {
    const app = await startTestApp({ bootstrap: ADMIN, flags: ["--external-url", "https://svc.example.com"] });
    try {
      const rest = restClient(app.baseUrl);
      const token = await signInFirstAdmin(rest);
      const got = await rest<Json>("GET", "/v1/settings/WORKSPACE_PROFILE", { token });
      assert.equal(got.body.value.workspaceProfile.externalUrl, "https://svc.example.com");
      const refusedWrite = await rest<Json>("PATCH", "/v1/settings/WORKSPACE_PROFILE?updateMask=workspaceProfile.externalUrl", {
        token,
        body: { value: { workspaceProfile: { externalUrl: "https://other.example.com" } } },
      });
      assert.equal(refusedWrite.status, 400);
      assert.equal(refusedWrite.body.code, "failed_precondition");
      assert.match(refusedWrite.body.message, /--external-url/);
      const whole = await rest<Json>("PATCH", "/v1/settings/WORKSPACE_PROFILE?updateMask=*", { token, body: { value: { workspaceProfile: { ...got.body.value.workspaceProfile, title: "T" } } } });
      assert.equal(whole.status, 200, JSON.stringify(whole.body));
      assert.equal(whole.body.value.workspaceProfile.externalUrl, "https://svc.example.com");
      // A URL stored behind the flag's back is hidden by the flag for every reader.
      await adminQuery(`update setting set value = value || '{"externalUrl": "https://stored.example.com"}' where name = 'WORKSPACE_PROFILE'`, app.database.url);
      assert.equal((await rest<Json>("GET", "/v1/settings/WORKSPACE_PROFILE", { token })).body.value.workspaceProfile.externalUrl, "https://svc.example.com");
      assert.equal((await rest<Json>("GET", "/v1/actuator/info")).body.externalUrl, "https://svc.example.com");
    } finally {
      await app.close();
    }
  });
});

describe("settings over Connect with snake_case masks", () => {
  it("records a mask path that has no JSON form (require_2fa) as written", async () => {
    const app = await startTestApp({ bootstrap: ADMIN });
    try {
      const token = await signInFirstAdmin(restClient(app.baseUrl));
      const client = createClient(SettingService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1", useBinaryFormat: true }));
      const updated = await client.updateSetting(
        {
          setting: { name: "settings/WORKSPACE_PROFILE", value: { value: { case: "workspaceProfile", value: create(WorkspaceProfileSettingSchema, { require2fa: true }) } } },
          updateMask: { paths: ["workspace_profile.require_2fa"] },
        },
        { headers: { authorization: `Bearer ${token}` } },
      );
      assert.equal(updated.value?.value.case === "workspaceProfile" && updated.value.value.value.require2fa, true);
      const [record] = (await adminQuery(`select request from audit_log where action = 'bb.settings.set'`, app.database.url)).rows;
      assert.match(record.request, /"updateMask":"workspace_profile\.require_2fa"/);
    } finally {
      await app.close();
    }
  });
});

describe("EMAIL:test", () => {
  it("sends through the stored or the given configuration, the stored password only to the stored server, and records each call", async () => {
    const app = await startTestApp({ bootstrap: ADMIN });
    const smtp = await startSmtpPeer({ username: "mailer", password: "smtp-Secret-1" });
    try {
      const rest = restClient(app.baseUrl);
      const token = await signInFirstAdmin(rest);
      const test = (body: Json) => rest<Json>("POST", "/v1/settings/EMAIL:test", { token, body });
      const unconfigured = await test({ to: "ops@example.com" });
      assert.equal(unconfigured.status, 400, JSON.stringify(unconfigured.body));
      assert.equal(unconfigured.body.code, "failed_precondition");
      const email = { from: "svc@example.com", fromName: "Svc", smtp: { host: "127.0.0.1", port: smtp.port, username: "mailer", password: "smtp-Secret-1", encryption: "NONE", authentication: "PLAIN" } };
      const stored = await rest<Json>("PATCH", "/v1/settings/EMAIL?updateMask=email", { token, body: { value: { email } } });
      assert.equal(stored.status, 200, JSON.stringify(stored.body));
      assert.equal((await test({ to: "ops@example.com" })).status, 200);
      const first = await smtp.next();
      assert.deepEqual([first.from, first.to], ["svc@example.com", ["ops@example.com"]]);
      assert.match(first.raw, /Subject: Workspace: test message/);
      // A given configuration for the stored server without its password uses the stored one.
      assert.equal((await test({ to: "dba@example.com", email: { ...email, fromName: "Other", smtp: { ...email.smtp, password: undefined } } })).status, 200);
      assert.deepEqual((await smtp.next()).to, ["dba@example.com"]);
      // Another server gets no stored password, although it would accept it.
      const elsewhere = await startSmtpPeer({ username: "mailer", password: "smtp-Secret-1" });
      try {
        const otherPort = await test({ to: "dba@example.com", email: { ...email, smtp: { ...email.smtp, port: elsewhere.port, password: undefined } } });
        assert.equal(otherPort.body.code, "unavailable", JSON.stringify(otherPort.body));
        assert.equal(elsewhere.received.length, 0);
        // With its own password, the other server is used.
        assert.equal((await test({ to: "dba@example.com", email: { ...email, smtp: { ...email.smtp, port: elsewhere.port } } })).status, 200);
        assert.deepEqual((await elsewhere.next()).to, ["dba@example.com"]);
      } finally {
        await elsewhere.close();
      }
      const wrong = await test({ to: "dba@example.com", email: { ...email, smtp: { ...email.smtp, password: "wrong" } } });
      assert.equal(wrong.body.code, "unavailable", JSON.stringify(wrong.body));
      assert.ok(!JSON.stringify(wrong.body).includes("wrong\""));
      const noRecipient = await test({});
      assert.equal(noRecipient.status, 400);
      const audit = (await adminQuery(`select actor, resource, request from audit_log where action = 'bb.settings.testEmail' and status_code = 'ok' order by id`, app.database.url)).rows;
      assert.deepEqual(audit.map((r: Json) => [r.actor, r.resource]), Array.from({ length: 3 }, () => ["users/admin", "settings/EMAIL"]));
      assert.match(audit[2].request, /"password":"\*\*\*"/);
      assert.ok(audit.every((r: Json) => !r.request.includes("smtp-Secret-1")));
    } finally {
      await smtp.close();
      await app.close();
    }
  });
});
