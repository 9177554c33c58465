/**
 * The node's libp2p identity: a secp256k1 key, so that the peer id and the ENR's `secp256k1`
 * entry name the same key. Persisted as 64 hex characters in `<dataDirectory>/p2p/peer-key`
 * (mode 0600); ephemeral when the data directory is '' (in-memory node).
 * @module
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { privateKeyFromRaw } from '@libp2p/crypto/keys';
import type { PrivateKey } from '@libp2p/interface';

/** Where the peer key lives inside the data directory. */
export const PEER_KEY_PATH = join('p2p', 'peer-key');

/** The raw 32-byte secret and the libp2p key object built from it. */
export interface PeerKey {
  readonly secret: Uint8Array;
  readonly privateKey: PrivateKey;
}

/** Loads the persisted key, creating it on first start; a fresh key when `dataDirectory` is ''. */
export async function loadOrCreatePeerKey(dataDirectory: string): Promise<PeerKey> {
  if (dataDirectory === '') return peerKeyFromSecret(secp256k1.utils.randomSecretKey());
  const file = join(dataDirectory, PEER_KEY_PATH);
  let text: string | undefined;
  try {
    text = (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (text !== undefined) {
    if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`p2p: ${file} is not a 32-byte hex secp256k1 key`);
    return peerKeyFromSecret(Uint8Array.from(Buffer.from(text, 'hex')));
  }
  const secret = secp256k1.utils.randomSecretKey();
  await mkdir(join(dataDirectory, 'p2p'), { recursive: true, mode: 0o700 });
  // 'wx' so two processes racing on one directory cannot overwrite each other's key.
  await writeFile(file, Buffer.from(secret).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600); // the umask may have narrowed or widened the create mode
  return peerKeyFromSecret(secret);
}

/** Wraps a raw secp256k1 secret (tests, tools). */
export function peerKeyFromSecret(secret: Uint8Array): PeerKey {
  if (!secp256k1.utils.isValidSecretKey(secret)) throw new Error('p2p: invalid secp256k1 secret key');
  return { secret, privateKey: privateKeyFromRaw(secret) };
}
