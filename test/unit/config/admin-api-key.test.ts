/** The admin API key lifecycle as a function (SPEC §3, §5). */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, stat, writeFile, mkdir, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { hashApiKey, resolveAdminApiKey } from '../../../src/config/admin-api-key.ts';

const base = { adminApiKeyHash: undefined, noAdminApiKey: false, resetAdminApiKey: false };

describe('resolveAdminApiKey', () => {
  it('hashApiKey is SHA-256 of the key text, as Aztec computes it', () => {
    assert.equal(hashApiKey('abc'), createHash('sha256').update('abc', 'utf8').digest('hex'));
  });

  it('generates a 64-hex key on first start and persists its hash with mode 0600', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'l2node-key-'));
    const state = await resolveAdminApiKey({ ...base, dataDirectory: dir });
    assert.ok(state.enabled && state.newKey !== undefined);
    assert.match(state.newKey, /^[0-9a-f]{64}$/);
    const file = join(dir, 'admin', 'api_key_hash');
    assert.equal(await readFile(file, 'utf8'), hashApiKey(state.newKey));
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const again = await resolveAdminApiKey({ ...base, dataDirectory: dir });
    assert.deepEqual(again, { enabled: true, hashHex: state.hashHex, source: 'stored' });
  });

  it('reset replaces the hash and tightens a loosened file mode', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'l2node-key-'));
    await mkdir(join(dir, 'admin'));
    await writeFile(join(dir, 'admin', 'api_key_hash'), 'f'.repeat(64));
    await chmod(join(dir, 'admin', 'api_key_hash'), 0o644);
    const state = await resolveAdminApiKey({ ...base, dataDirectory: dir, resetAdminApiKey: true });
    assert.ok(state.enabled && state.newKey);
    assert.notEqual(state.hashHex, 'f'.repeat(64));
    assert.equal((await stat(join(dir, 'admin', 'api_key_hash'))).mode & 0o777, 0o600);
  });

  it('a malformed stored hash is replaced by a new key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'l2node-key-'));
    await mkdir(join(dir, 'admin'));
    await writeFile(join(dir, 'admin', 'api_key_hash'), 'not a hash');
    const state = await resolveAdminApiKey({ ...base, dataDirectory: dir });
    assert.ok(state.enabled && state.source === 'generated');
  });

  it('a given hash wins over the stored one; disabling wins over everything', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'l2node-key-'));
    const given = 'a'.repeat(64);
    assert.deepEqual(await resolveAdminApiKey({ ...base, dataDirectory: dir, adminApiKeyHash: given }), {
      enabled: true,
      hashHex: given,
      source: 'flag',
    });
    assert.deepEqual(
      await resolveAdminApiKey({ ...base, dataDirectory: dir, adminApiKeyHash: given, noAdminApiKey: true }),
      { enabled: false },
    );
  });

  it('without a data directory each call makes a new key and writes nothing', async () => {
    const a = await resolveAdminApiKey({ ...base, dataDirectory: '' });
    const b = await resolveAdminApiKey({ ...base, dataDirectory: '' });
    assert.ok(a.enabled && b.enabled && a.newKey && b.newKey && a.newKey !== b.newKey);
  });
});
