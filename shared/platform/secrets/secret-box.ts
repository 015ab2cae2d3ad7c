// Credentials at rest (contract §9.4): AES-256-GCM under the operator's key.
// A sealed value is one string, `sealed:v1:<key id>:<base64 nonce|tag|ciphertext>`,
// so it can sit in a text column or inside a JSON payload and be found again
// when the key is rotated. The key id (first bytes of the key's SHA-256) lets
// a mismatched key be reported plainly instead of as a decryption failure.
import { createCipheriv, createDecipheriv, createHash, createSecretKey, randomBytes } from "node:crypto";

export interface SecretBox {
  readonly keyId: string;
  seal(plain: string): string;
  open(sealed: string): string;
}

export const KEY_BYTES = 32;
const PREFIX = "sealed:v1:";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretKeyMismatch extends Error {
  override name = "SecretKeyMismatch";
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new Error(`a secret key is ${KEY_BYTES} bytes, got ${key.length}`);
  const keyId = secretKeyId(key);
  const cipherKey = createSecretKey(key); // made once: a raw key would be made into a key object on every call
  return {
    keyId,
    seal(plain) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", cipherKey, nonce);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return `${PREFIX}${keyId}:${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64")}`;
    },
    open(sealed) {
      const [sealedKeyId, payload] = splitSealed(sealed);
      if (sealedKeyId !== keyId) {
        throw new SecretKeyMismatch(`a stored secret was sealed with key ${sealedKeyId}, but the configured key is ${keyId}`);
      }
      const bytes = Buffer.from(payload, "base64");
      const decipher = createDecipheriv("aes-256-gcm", cipherKey, bytes.subarray(0, NONCE_BYTES));
      decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    },
  };
}

export function isSealed(value: unknown): value is string {
  return typeof value === "string" && value.startsWith(PREFIX);
}

function secretKeyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 12);
}

function splitSealed(sealed: string): [string, string] {
  if (!isSealed(sealed)) throw new Error("not a sealed secret");
  const rest = sealed.slice(PREFIX.length);
  const colon = rest.indexOf(":");
  return [rest.slice(0, colon), rest.slice(colon + 1)];
}
