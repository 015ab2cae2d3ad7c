// TOTP (RFC 6238, contract §4.2, §5.1): 6 digits, 30-second steps, codes of
// the previous and next step accepted. A secret is base32 (160 bits), as
// authenticator apps expect; enrolment shows it as text, as an otpauth:// URI
// and as that URI in a QR code (PNG data URL).
import { generateSecret, generateURI, verify } from "otplib";
import { toDataURL } from "qrcode";

const PERIOD_SECONDS = 30;
const CODE = /^\d{6}$/;

export interface TotpEnrollment {
  secret: string;
  uri: string;
  qrCode: string;
}

/** A new secret with its URI (otpauth://totp/<issuer>:<loginId>?…) and QR code. */
export async function newTotpEnrollment(issuer: string, loginId: string): Promise<TotpEnrollment> {
  const secret = generateSecret();
  const uri = generateURI({ issuer, label: loginId, secret, period: PERIOD_SECONDS });
  return { secret, uri, qrCode: await toDataURL(uri, { errorCorrectionLevel: "M" }) };
}

/** The time step the code belongs to (±1 step around now), or undefined when it matches none. */
export async function totpTimeStep(secret: string, code: string): Promise<number | undefined> {
  const token = code.trim();
  if (!CODE.test(token)) return undefined;
  const result = await verify({ secret, token, period: PERIOD_SECONDS, epochTolerance: PERIOD_SECONDS });
  return result.valid && "timeStep" in result ? result.timeStep : undefined;
}
