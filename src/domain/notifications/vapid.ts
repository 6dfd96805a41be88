// The instance's VAPID key pair for web push: generated on first use, kept in the directory with
// the private key sealed by the secrets master key; read once per isolate. Two isolates generating
// at once: the first insert wins and both read it back.
import { eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { decryptSecretValue, encryptSecretValue, importMasterKey } from "../../crypto/secret-encryption";
import { generateVapidKeys, type VapidKeys } from "../../crypto/web-push";

const CONTEXT = "instance-vapid-keys";
let cached: Promise<VapidKeys> | null = null;

async function load(env: Env, db: Db): Promise<VapidKeys> {
  const t = schema.vapidKeys;
  const read = async () => (await db.select().from(t).where(eq(t.id, 1)))[0];
  let row = await read();
  if (!row) {
    const keys = await generateVapidKeys();
    const sealed = JSON.stringify(await encryptSecretValue(await importMasterKey(env.SECRETS_MASTER_KEY), JSON.stringify(keys.privateKey), CONTEXT));
    await db
      .insert(t)
      .values({ id: 1, publicKey: keys.publicKey, privateKeyCiphertext: sealed, createdAt: new Date().toISOString() })
      .onConflictDoNothing()
      .run();
    row = (await read())!;
  }
  const privateKey = JSON.parse(
    await decryptSecretValue(await importMasterKey(env.SECRETS_MASTER_KEY), JSON.parse(row.privateKeyCiphertext), CONTEXT),
  ) as JsonWebKey;
  return { publicKey: row.publicKey, privateKey };
}

export function instanceVapidKeys(env: Env, db: Db): Promise<VapidKeys> {
  cached ??= load(env, db).catch((err) => {
    cached = null;
    throw err;
  });
  return cached;
}

export const vapidPublicKey = async (env: Env, db: Db) => (await instanceVapidKeys(env, db)).publicKey;
