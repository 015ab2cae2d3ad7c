// `npm run admin -- rotate-secret-key`: with every server stopped, every
// stored credential is opened with the current key and sealed with the new
// one, and the workspace's key id changes, all in one transaction — a
// failure leaves the old key in force.
import { type Db, failedPrecondition, type SecretBox, withTransaction } from "../../platform/index.ts";
import { setEncryptionKeyId } from "../settings/setting.store.ts";
import { checkSecretKey } from "./key-check.ts";
import { resealStoredSecrets } from "./sealed-values.store.ts";
import { countServerConnections } from "./server-connections.store.ts";

export async function rotateSecretKey(db: Db, current: SecretBox, next: SecretBox): Promise<number> {
  return withTransaction(db, async (tx) => {
    const connections = await countServerConnections(tx);
    if (connections > 0) {
      throw failedPrecondition(
        `${connections} server connection(s) to the metadata store are open: stop every server (API and worker) before rotating the key, then start them with the new key`,
      );
    }
    await checkSecretKey(tx, current);
    const count = await resealStoredSecrets(tx, (sealed) => next.seal(current.open(sealed)));
    await setEncryptionKeyId(tx, next.keyId);
    return count;
  });
}
