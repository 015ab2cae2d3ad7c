// Rows of the setting table written before the store package (svc.store)
// existed hold the proto JSON of the API's payloads. They must read exactly
// as before (same keys, enum names, int64 strings, timestamps, sealed
// credentials shown only as flags), and a write over them must keep that
// format: the sealed credential it leaves alone stays byte for byte.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createSecretBox } from "../shared/platform/secrets/secret-box.ts";
import { parseSecretKey } from "../shared/platform/secrets/secret-key.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;

describe("setting rows in the stored format", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  let admin = "";
  const box = createSecretBox(parseSecretKey(process.env.SVC_SECRET_KEY ?? "", "SVC_SECRET_KEY"));
  const smtpPassword = box.seal("smtp-password");
  const slackToken = box.seal("xoxb-token");
  const directoryToken = box.seal("directory-token");

  const rows: Record<string, Json> = {
    EMAIL: {
      from: "ops@example.com",
      fromName: "Ops",
      smtp: { host: "smtp.example.com", port: 2525, username: "ops", password: smtpPassword, encryption: "SSL_TLS", authentication: "LOGIN" },
    },
    APP_IM: { settings: [{ type: "SLACK", enabled: true, slack: { token: slackToken } }] },
    EMERGENCY_PAUSE: { enabled: true, reason: "upgrade", updateTime: "2026-01-02T03:04:05Z", updater: "users/admin" },
    ENVIRONMENT: {
      environments: [
        {
          id: "prod",
          title: "Prod",
          color: "#d8000c",
          protected: true,
          rolloutPolicy: "MANUAL",
          sqlReview: { rules: [{ type: "statement.insert-row-limit", level: "WARNING", payload: { max: 500 } }] },
        },
      ],
    },
    MAINTENANCE_WINDOW: { enabled: true, timezone: "Europe/Berlin", windows: [{ weekdays: ["SATURDAY", "SUNDAY"], start: "02:00", duration: "7200s" }] },
    WORKSPACE_PROFILE: { title: "Acme", sqlResultSize: "209715200", directorySyncToken: directoryToken, passwordRestriction: { minLength: 16 } },
  };

  const get = async (name: string): Promise<Json> => {
    const reply = await rest<Json>("GET", `/v1/settings/${name}`, { token: admin });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.value;
  };
  const stored = async (name: string): Promise<Json> => (await adminQuery(`select value from setting where name = '${name}'`, app.database.url)).rows[0].value;

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    admin = await signInFirstAdmin(rest);
    for (const [name, value] of Object.entries(rows)) {
      const json = JSON.stringify(value).replaceAll("'", "''");
      await adminQuery(`insert into setting (name, value) values ('${name}', '${json}') on conflict (name) do update set value = excluded.value`, app.database.url);
    }
  });
  after(() => app.close());

  it("reads each payload as written, credentials only as their flags", async () => {
    assert.deepEqual((await get("EMAIL")).email, {
      from: "ops@example.com",
      fromName: "Ops",
      smtp: { host: "smtp.example.com", port: 2525, username: "ops", passwordSet: true, encryption: "SSL_TLS", authentication: "LOGIN" },
    });
    assert.deepEqual((await get("APP_IM")).appIm, { settings: [{ type: "SLACK", enabled: true, slack: { tokenSet: true } }] });
    assert.deepEqual((await get("EMERGENCY_PAUSE")).emergencyPause, rows.EMERGENCY_PAUSE);
    assert.deepEqual((await get("ENVIRONMENT")).environment, rows.ENVIRONMENT);
    assert.deepEqual((await get("MAINTENANCE_WINDOW")).maintenanceWindow, rows.MAINTENANCE_WINDOW);
    const profile = (await get("WORKSPACE_PROFILE")).workspaceProfile;
    assert.equal(profile.title, "Acme");
    assert.equal(profile.sqlResultSize, "209715200");
    assert.equal(profile.directorySyncTokenSet, true);
    assert.equal(profile.directorySyncToken, undefined);
    assert.deepEqual(profile.passwordRestriction, {
      minLength: 16,
      requireNumber: true,
      requireLetter: true,
      requireUppercaseLetter: true,
      requireSpecialCharacter: true,
      requireResetPasswordForFirstLogin: true,
      passwordRotation: "7776000s",
    });
  });

  it("keeps the stored format and the untouched sealed credential through a write", async () => {
    const reply = await rest<Json>("PATCH", "/v1/settings/EMAIL?updateMask=email.fromName", { token: admin, body: { value: { email: { fromName: "Operations" } } } });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(await stored("EMAIL"), { ...rows.EMAIL, fromName: "Operations" });
    const [record] = (await adminQuery(`select detail from audit_log where action = 'bb.settings.set' and resource = 'settings/EMAIL'`, app.database.url)).rows;
    assert.deepEqual(record.detail, { changes: [{ field: "email.fromName", old: "Ops", new: "Operations" }] });
  });
});
