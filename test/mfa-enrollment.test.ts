// Second-factor enrolment through UpdateUser (contract §5.1, §3.4): a pending
// secret with its otpauth URI and QR code, confirmed with a code computed from
// it; ten recovery codes shown once and stored hashed; regenerating them;
// disabling with a code or the password; replacing an enabled factor only
// with proof of it; secrets sealed at rest and redacted from audit records;
// the same over Connect.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AuthService } from "../shared/gen/svc/v1/auth_service_pb.js";
import { UserService } from "../shared/gen/svc/v1/user_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { mergeWorkspaceProfile } from "./helpers/workspace-profile.ts";
import { adminQuery } from "./helpers/db.ts";
import { enrol, totpCode, wrongCode, type MfaUser } from "./helpers/mfa.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

type AuditRow = { action: string; status_code: string; request: string; response: string; detail: Record<string, unknown> };

const RECOVERY_CODE = /^[a-z2-9]{4}-[a-z2-9]{4}$/;

describe("second-factor enrolment", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const sql = async <T = Record<string, unknown>>(text: string) => (await adminQuery(text, app.database.url)).rows as T[];
  const patch = (loginId: string, token: string, body: object) => rest<MfaUser>("PATCH", `/v1/users/${loginId}`, { token, body });
  const auditOf = (actor: string) =>
    sql<AuditRow>(`select action, status_code, request, response, detail from audit_log where actor = 'users/${actor}' and method like '%UpdateUser' order by id`);
  /** Signs in with the password and the second factor; answers the reply of the second step. */
  const signInWithCode = async (loginId: string, factor: { otpCode?: string; recoveryCode?: string }) => {
    const first = await rest<{ mfaTempToken: string }>("POST", "/v1/auth/login", { body: { loginId, password: STRONG_PASSWORD } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    return rest<{ accessToken?: string; message?: string }>("POST", "/v1/auth/login", { body: { mfaTempToken: first.body.mfaTempToken, ...factor } });
  };

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    for (const id of ["bob", "carol", "dave", "erin"]) await makeUser(app.db, id);
    await mergeWorkspaceProfile(app, { title: "Acme Data" });
  });
  after(() => app.close());

  it("enrols with a code of the returned secret and answers ten recovery codes once, all stored sealed or hashed", async () => {
    const token = await signIn(rest, "bob");
    const started = await patch("bob", token, { regenerateTempMfaSecret: true });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const secret = started.body.tempOtpSecret!;
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.equal(started.body.tempOtpUri, `otpauth://totp/Acme%20Data:bob?secret=${secret}&issuer=Acme%20Data`);
    const png = Buffer.from(started.body.tempOtpQrCode!.replace(/^data:image\/png;base64,/, ""), "base64");
    assert.ok(started.body.tempOtpQrCode!.startsWith("data:image/png;base64,"));
    assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from("PNG")]);
    assert.equal(started.body.mfaEnabled, undefined, "not enabled before a code confirms the secret");
    const [pending] = await sql<{ mfa_temp_secret: string; mfa_secret: string | null }>(`select mfa_temp_secret, mfa_secret from principal where login_id = 'bob'`);
    assert.match(pending!.mfa_temp_secret, /^sealed:v1:/);
    assert.ok(!pending!.mfa_temp_secret.includes(secret));
    assert.equal(pending!.mfa_secret, null);

    const wrong = await patch("bob", token, { user: { mfaEnabled: true }, updateMask: "mfaEnabled", otpCode: await wrongCode(secret) });
    assert.deepEqual([wrong.status, wrong.body.code, wrong.body.message], [400, "invalid_argument", "otp_code: invalid verification code"]);
    const enabled = await patch("bob", token, { user: { mfaEnabled: true }, updateMask: "mfaEnabled", otpCode: await totpCode(secret) });
    assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
    assert.equal(enabled.body.mfaEnabled, true);
    assert.equal(enabled.body.tempOtpSecret, undefined);
    const codes = enabled.body.tempRecoveryCodes!;
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, RECOVERY_CODE);

    const me = await rest<MfaUser>("GET", "/v1/users/me", { token });
    assert.equal(me.body.mfaEnabled, true);
    assert.equal(me.body.tempRecoveryCodes, undefined, "shown once");
    const [stored] = await sql<{ mfa_secret: string; mfa_temp_secret: string | null }>(`select mfa_secret, mfa_temp_secret from principal where login_id = 'bob'`);
    assert.match(stored!.mfa_secret, /^sealed:v1:/);
    assert.equal(stored!.mfa_temp_secret, null);
    const hashes = await sql<{ h: string }>(`select encode(code_hash, 'hex') as h from mfa_recovery_code c join principal p on p.id = c.principal_id where p.login_id = 'bob'`);
    assert.deepEqual(hashes.map((r) => r.h).sort(), codes.map((c) => createHash("sha256").update(c).digest("hex")).sort());

    const records = await auditOf("bob");
    assert.deepEqual(records.map((r) => `${r.action} ${r.status_code}`), ["bb.users.update ok", "bb.auth.mfa.enable invalid_argument", "bb.auth.mfa.enable ok"]);
    const [regenerated, , enable] = records;
    assert.deepEqual(
      ["tempOtpSecret", "tempOtpUri", "tempOtpQrCode"].map((f) => JSON.parse(regenerated!.response)[f]),
      ["***", "***", "***"],
    );
    assert.equal(JSON.parse(enable!.request).otpCode, "***");
    assert.equal(JSON.parse(enable!.response).tempRecoveryCodes, "***");
    const secrets = [secret, ...codes].map((s) => `request || response || detail::text like '%${s}%'`).join(" or ");
    assert.deepEqual(await sql(`select id from audit_log where ${secrets}`), [], "no secret reaches the audit log");
  });

  it("regenerates the recovery codes with a current code; the old ones stop working", async () => {
    const token = await signIn(rest, "carol");
    const { secret, recoveryCodes } = await enrol(rest, token, "carol");
    const noCode = await patch("carol", token, { regenerateRecoveryCodes: true });
    assert.deepEqual([noCode.status, noCode.body.message], [400, "otp_code is required to regenerate the recovery codes"]);
    const wrong = await patch("carol", token, { regenerateRecoveryCodes: true, otpCode: await wrongCode(secret) });
    assert.equal(wrong.status, 400);
    const [failures] = await sql<{ failure_count: number }>(`select failure_count from login_failure where login_id = 'carol'`);
    assert.equal(failures?.failure_count, 1, "a wrong code of the enabled factor counts toward the lockout");
    const regenerated = await patch("carol", token, { regenerateRecoveryCodes: true, otpCode: await totpCode(secret, 1) });
    assert.equal(regenerated.status, 200, JSON.stringify(regenerated.body));
    const fresh = regenerated.body.tempRecoveryCodes!;
    assert.equal(fresh.length, 10);
    assert.equal(fresh.filter((c) => recoveryCodes.includes(c)).length, 0);

    const old = await signInWithCode("carol", { recoveryCode: recoveryCodes[0]! });
    assert.deepEqual([old.status, old.body.message], [401, "invalid verification code"]);
    const current = await signInWithCode("carol", { recoveryCode: fresh[0]!.toUpperCase() });
    assert.equal(current.status, 200, JSON.stringify(current.body));
  });

  it("disables with a current code or with the password; a wrong one is refused and counted", async () => {
    const token = await signIn(rest, "dave");
    const { secret } = await enrol(rest, token, "dave");
    const disable = (extra: object) => patch("dave", token, { user: { mfaEnabled: false }, updateMask: "mfaEnabled", ...extra });
    const bare = await disable({});
    assert.deepEqual([bare.status, bare.body.message], [400, "otp_code or current_password is required to disable the second factor"]);
    assert.equal((await disable({ otpCode: await wrongCode(secret) })).status, 400);
    assert.equal((await disable({ currentPassword: "Not-The-Password-1" })).status, 400);
    const [failures] = await sql<{ failure_count: number }>(`select failure_count from login_failure where login_id = 'dave'`);
    assert.equal(failures?.failure_count, 2);

    const byCode = await disable({ otpCode: await totpCode(secret, 1) });
    assert.equal(byCode.status, 200, JSON.stringify(byCode.body));
    assert.equal(byCode.body.mfaEnabled, undefined);
    assert.deepEqual(await sql(`select 1 from mfa_recovery_code c join principal p on p.id = c.principal_id where p.login_id = 'dave'`), []);
    const plain = await rest<{ accessToken?: string }>("POST", "/v1/auth/login", { body: { loginId: "dave", password: STRONG_PASSWORD } });
    assert.ok(plain.body.accessToken, "the password alone signs in again");
    const again = await disable({ currentPassword: STRONG_PASSWORD });
    assert.deepEqual([again.status, again.body.code], [400, "failed_precondition"]);

    await enrol(rest, token, "dave");
    const byPassword = await disable({ currentPassword: STRONG_PASSWORD });
    assert.equal(byPassword.status, 200, JSON.stringify(byPassword.body));
    const records = await auditOf("dave");
    assert.deepEqual(
      records.filter((r) => r.action === "bb.auth.mfa.disable").map((r) => r.status_code),
      ["invalid_argument", "invalid_argument", "invalid_argument", "ok", "failed_precondition", "ok"],
    );
    for (const record of records) assert.ok(!record.request.includes(STRONG_PASSWORD) && !record.request.includes(secret));
  });

  it("replaces an enabled factor only with proof of it: a code of the factor or the password, the password to enable the new one", async () => {
    await makeUser(app.db, "gail");
    const token = await signIn(rest, "gail");
    const { secret: first } = await enrol(rest, token, "gail");
    const restart = (extra: object) => patch("gail", token, { regenerateTempMfaSecret: true, ...extra });
    const pendingSecret = async () => (await sql<{ s: string | null }>(`select mfa_temp_secret as s from principal where login_id = 'gail'`))[0]!.s;

    const bare = await restart({});
    assert.deepEqual([bare.status, bare.body.code, bare.body.message], [400, "invalid_argument", "otp_code or current_password is required to replace the enabled second factor"]);
    const wrong = await restart({ otpCode: await wrongCode(first) });
    assert.deepEqual([wrong.status, wrong.body.message], [400, "otp_code: invalid verification code"]);
    const wrongPassword = await restart({ currentPassword: "Not-The-Password-1" });
    assert.deepEqual([wrongPassword.status, wrongPassword.body.message], [400, "current_password is wrong"]);
    const [failures] = await sql<{ failure_count: number }>(`select failure_count from login_failure where login_id = 'gail'`);
    assert.equal(failures?.failure_count, 2, "wrong proofs count toward the lockout");
    assert.equal(await pendingSecret(), null, "nothing was started without proof");

    const byCode = await restart({ otpCode: await totpCode(first, 1) });
    assert.equal(byCode.status, 200, JSON.stringify(byCode.body));
    assert.match(byCode.body.tempOtpSecret!, /^[A-Z2-7]{32}$/);
    const byPassword = await restart({ currentPassword: STRONG_PASSWORD });
    assert.equal(byPassword.status, 200, JSON.stringify(byPassword.body));
    const second = byPassword.body.tempOtpSecret!;

    const enable = async (extra: object) => patch("gail", token, { user: { mfaEnabled: true }, updateMask: "mfaEnabled", otpCode: await totpCode(second), ...extra });
    const unproven = await enable({});
    assert.deepEqual([unproven.status, unproven.body.code], [400, "invalid_argument"]);
    assert.match(unproven.body.message!, /^current_password is required to enable a new second factor/);
    const proven = await enable({ currentPassword: STRONG_PASSWORD });
    assert.equal(proven.status, 200, JSON.stringify(proven.body));
    assert.equal(proven.body.tempRecoveryCodes?.length, 10);

    const old = await signInWithCode("gail", { otpCode: await totpCode(first, 1) });
    assert.deepEqual([old.status, old.body.message], [401, "invalid verification code"], "the replaced factor no longer signs in");
    const current = await signInWithCode("gail", { otpCode: await totpCode(second, 1) });
    assert.equal(current.status, 200, JSON.stringify(current.body));
    const records = (await auditOf("gail")).filter((r) => r.action === "bb.auth.mfa.enable").map((r) => r.status_code);
    assert.deepEqual(records, ["ok", "invalid_argument", "ok"]);
  });

  it("refuses what is not enrolment: another user's factor, mixed masks, enabling without a pending secret", async () => {
    const admin = await signInFirstAdmin(rest);
    const other = await patch("erin", admin, { regenerateTempMfaSecret: true });
    assert.deepEqual([other.status, other.body.code], [403, "permission_denied"]);
    assert.match(other.body.message!, /ResetMfa/);
    const token = await signIn(rest, "erin");
    const early = await patch("erin", token, { user: { mfaEnabled: true }, updateMask: "mfaEnabled", otpCode: "123456" });
    assert.deepEqual([early.status, early.body.code], [400, "failed_precondition"]);
    assert.match(early.body.message!, /regenerate_temp_mfa_secret first/);
    const mixed = await patch("erin", token, { user: { mfaEnabled: true, title: "Erin" }, updateMask: "mfaEnabled,title", otpCode: "123456" });
    assert.deepEqual([mixed.status, mixed.body.code], [400, "invalid_argument"]);
    const empty = await patch("erin", token, {});
    assert.deepEqual([empty.status, empty.body.code], [400, "invalid_argument"]);
  });

  it("enrols and signs in with the second factor over Connect", async () => {
    await makeUser(app.db, "frank");
    const transport = createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" });
    const auth = createClient(AuthService, transport);
    const users = createClient(UserService, transport);
    const first = await auth.login({ loginId: "frank", password: STRONG_PASSWORD });
    const headers = { authorization: `Bearer ${first.accessToken}` };
    const started = await users.updateUser({ user: { name: "users/frank" }, regenerateTempMfaSecret: true }, { headers });
    assert.match(started.tempOtpUri, /^otpauth:\/\/totp\/Acme%20Data:frank\?/);
    const enabled = await users.updateUser(
      { user: { name: "users/frank", mfaEnabled: true }, updateMask: { paths: ["mfa_enabled"] }, otpCode: await totpCode(started.tempOtpSecret) },
      { headers },
    );
    assert.equal(enabled.mfaEnabled, true);
    assert.equal(enabled.tempRecoveryCodes.length, 10);

    const step1 = await auth.login({ loginId: "frank", password: STRONG_PASSWORD });
    assert.deepEqual([step1.accessToken, step1.refreshToken, step1.user], ["", "", undefined]);
    assert.match(step1.mfaTempToken, /^smt_/);
    const step2 = await auth.login({ mfaTempToken: step1.mfaTempToken, otpCode: await totpCode(started.tempOtpSecret, 1) });
    assert.match(step2.accessToken, /^sat_/);
    assert.equal(step2.user?.name, "users/frank");
    assert.equal(step2.user?.mfaEnabled, true);
  });
});
