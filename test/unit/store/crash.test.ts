import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../../src/impl/store/database.ts';
import { WorldState } from '../../../src/impl/world-state/world-state.ts';
import { TreeId } from '../../../src/impl/world-state/constants.ts';
import { headerFromState } from '../world-state/helpers.ts';

test('a process killed with SIGKILL in the middle of a block leaves the previous block intact, and a restart continues from it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-crash-'));
  try {
    const child = spawn(process.execPath, [fileURLToPath(new URL('./crash-child.ts', import.meta.url)), dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('READY')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));

    const db = await openDatabase({ dataDirectory: dir });
    const ws = await WorldState.open({ db });
    assert.equal((await ws.getSyncStatus()).latestBlockNumber, 1);
    assert.ok(await ws.getNullifierMembershipWitness('latest', 1001n));
    assert.equal(await ws.getNullifierMembershipWitness('latest', 2002n), null);
    assert.equal((await ws.getTreeSnapshot(TreeId.NOTE_HASH_TREE, 'latest')).nextAvailableLeafIndex, 64);
    const again = await ws.applyBlock({
      blockNumber: 2,
      txEffects: [{ noteHashes: [22n], nullifiers: [2002n], publicDataWrites: [] }],
      header: headerFromState,
    });
    assert.equal(again.blockNumber, 2);
    assert.ok(await ws.getNullifierMembershipWitness(2, 2002n));
    await db.destroy();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
