/**
 * The admin API key lifecycle (SPEC §3, §5): generate a key on first start, persist only its
 * SHA-256 hash under `<dataDirectory>/admin/api_key_hash`, reuse it on restart, regenerate on
 * `--reset-admin-api-key`, or take a given hash, or disable auth.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the hash lives, relative to the data directory (SPEC §5). */
export const API_KEY_HASH_FILE = join('admin', 'api_key_hash');

const HASH_PATTERN = /^[0-9a-f]{64}$/;

/** The inputs of the lifecycle, taken from `Config`. */
export interface AdminApiKeyOptions {
  readonly dataDirectory: string;
  readonly adminApiKeyHash: string | undefined;
  readonly noAdminApiKey: boolean;
  readonly resetAdminApiKey: boolean;
}

/** How the admin port authenticates, and the new key to print once, if one was made. */
export type AdminApiKeyState =
  | { readonly enabled: false }
  | {
      readonly enabled: true;
      /** SHA-256 of the key text, 64 lowercase hex. */
      readonly hashHex: string;
      readonly source: 'flag' | 'stored' | 'generated';
      /** The key itself, only when it was just generated and must be printed. */
      readonly newKey?: string;
    };

/** Returns the SHA-256 of the key text (UTF-8 bytes of the hex string, as Aztec does) as hex. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Generates a key: 32 random bytes as 64 lowercase hex characters. */
export function generateApiKey(): string {
  return randomBytes(32).toString('hex');
}

/** Resolves the admin key state, creating and persisting a key when the lifecycle says so. */
export async function resolveAdminApiKey(options: AdminApiKeyOptions): Promise<AdminApiKeyState> {
  if (options.noAdminApiKey) return { enabled: false };
  if (options.adminApiKeyHash !== undefined) return { enabled: true, hashHex: options.adminApiKeyHash, source: 'flag' };
  // SPEC §5: without a data directory nothing is persisted, so each start gets a fresh key.
  if (options.dataDirectory === '') return generated();
  const file = join(options.dataDirectory, API_KEY_HASH_FILE);
  if (!options.resetAdminApiKey) {
    const stored = await readStoredHash(file);
    if (stored !== undefined) return { enabled: true, hashHex: stored, source: 'stored' };
  }
  const state = generated();
  await mkdir(join(options.dataDirectory, 'admin'), { recursive: true, mode: 0o700 });
  await writeFile(file, state.hashHex, { mode: 0o600 });
  // writeFile's mode only applies when it creates the file; an older file keeps its mode.
  await chmod(file, 0o600);
  return state;
}

function generated(): AdminApiKeyState & { enabled: true; hashHex: string } {
  const key = generateApiKey();
  return { enabled: true, hashHex: hashApiKey(key), source: 'generated', newKey: key };
}

async function readStoredHash(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const hash = text.trim();
  // Aztec regenerates on a malformed file rather than refusing to start; so do we.
  return HASH_PATTERN.test(hash) ? hash : undefined;
}

/** Returns the once-only banner that shows a new key and how to send it. */
export function renderNewKeyBanner(key: string, persistedAt: string | undefined): string {
  const rule = '='.repeat(72);
  return [
    rule,
    'Admin API key (shown once; only its SHA-256 hash is kept):',
    '',
    `  ${key}`,
    '',
    'Send it on every admin request as one of:',
    `  x-api-key: ${key}`,
    `  Authorization: Bearer ${key}`,
    persistedAt === undefined
      ? 'No data directory: this key lasts until the node stops.'
      : `Hash stored in ${persistedAt}; start with --reset-admin-api-key to replace the key.`,
    rule,
    '',
  ].join('\n');
}
