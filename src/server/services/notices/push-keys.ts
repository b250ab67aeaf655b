/**
 * The site's VAPID keys (issue 60): made once, by the first instance that starts with push on, and
 * kept with the database (`push_keys`), so every instance signs with the same key and every
 * subscription made with its public half keeps working across restarts.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { pushKeys } from '../../db/schema/index.ts';
import { generateVapidKeys, type VapidKeys } from '../../push/push-service.ts';

/**
 * The stored key pair, made now when there is none. Instances starting at once each make a pair,
 * but only the first insert is kept (`on conflict do nothing`) and all read that one back.
 */
export async function vapidKeys(db: Database): Promise<VapidKeys> {
  const stored = await readKeys(db);
  if (stored) return stored;
  const made = await generateVapidKeys();
  await db.insert(pushKeys).values({ id: 1, publicKey: made.publicKey, privateKey: made.privateKey }).onConflictDoNothing();
  const kept = await readKeys(db);
  if (!kept) throw new Error('push_keys: the key pair was not kept');
  return kept;
}

async function readKeys(db: Database): Promise<VapidKeys | null> {
  const [row] = await db.select({ publicKey: pushKeys.publicKey, privateKey: pushKeys.privateKey }).from(pushKeys).where(eq(pushKeys.id, 1));
  return row ?? null;
}
