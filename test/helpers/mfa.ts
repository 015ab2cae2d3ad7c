// Second-factor helpers for tests: TOTP codes computed by otplib from the
// secret the service answered, and enrolment through UpdateUser over REST.
import assert from "node:assert/strict";
import { generate } from "otplib";
import { adminQuery } from "./db.ts";
import type { restClient } from "./rest.ts";

type Rest = ReturnType<typeof restClient>;

export interface MfaUser {
  name?: string;
  mfaEnabled?: boolean;
  tempOtpSecret?: string;
  tempOtpUri?: string;
  tempOtpQrCode?: string;
  tempRecoveryCodes?: string[];
  code?: string;
  message?: string;
}

/** The code of the time step `stepsAhead` steps from now (the service accepts -1, 0 and +1). */
export function totpCode(secret: string, stepsAhead = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });
}

/** A 6-digit code that is none of the accepted ones. */
export async function wrongCode(secret: string): Promise<string> {
  const accepted = new Set(await Promise.all([-2, -1, 0, 1, 2].map((step) => totpCode(secret, step))));
  let code = Number(await totpCode(secret));
  do code = (code + 1) % 1_000_000;
  while (accepted.has(String(code).padStart(6, "0")));
  return String(code).padStart(6, "0");
}

/** Enrols the signed-in user: a pending secret, confirmed with its current code; answers the secret and recovery codes. */
export async function enrol(rest: Rest, token: string, loginId: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await rest<MfaUser>("PATCH", `/v1/users/${loginId}`, { token, body: { regenerateTempMfaSecret: true } });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const secret = started.body.tempOtpSecret!;
  const enabled = await rest<MfaUser>("PATCH", `/v1/users/${loginId}`, {
    token,
    body: { user: { mfaEnabled: true }, updateMask: "mfaEnabled", otpCode: await totpCode(secret) },
  });
  assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
  return { secret, recoveryCodes: enabled.body.tempRecoveryCodes! };
}

/** Forgets the user's last used time step, as if 30 s had passed, so that tests need not wait for new codes. */
export async function forgetUsedSteps(databaseUrl: string, loginId: string): Promise<void> {
  await adminQuery(`update principal set mfa_last_time_step = null where login_id = '${loginId}'`, databaseUrl);
}
