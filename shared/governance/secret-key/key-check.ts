// A server started with another key than the one its stored secrets were
// sealed with would fail later, call by call. The workspace remembers the id
// of its key (SYSTEM, contract §7.13); a different key stops the start-up.
import type { CommonQueryMethods } from "slonik";
import { ConfigError, type SecretBox } from "../../platform/index.ts";
import { claimEncryptionKeyId } from "../settings/setting.store.ts";

export async function checkSecretKey(db: CommonQueryMethods, box: SecretBox): Promise<void> {
  const stored = await claimEncryptionKeyId(db, box.keyId);
  if (stored !== box.keyId) {
    throw new ConfigError(
      `the key for secrets at rest (id ${box.keyId}) is not the workspace's key (id ${stored}); start with the key the workspace was set up with, or rotate with \`npm run admin -- rotate-secret-key\``,
    );
  }
}
