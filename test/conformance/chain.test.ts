/**
 * The conformance chain file: a fresh build reproduces the committed bytes, `l2node
 * --import-chain` serves exactly the file's chain (tips, blocks, pending txs), and the import
 * goes through block verification — a file with one altered value is refused at start.
 * @module
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildChain, renderChainFile } from '../../src/conformance/chain/build.ts';
import { CHAIN_FILE } from '../../src/conformance/chain/paths.ts';
import { postJson } from '../../src/conformance/http.ts';
import { startNode } from '../../src/conformance/node-process.ts';
import type { StartedNode } from '../../src/conformance/node-process.ts';
import { readChainFile } from '../../src/impl/chain-import-file.ts';

const committed = readFileSync(CHAIN_FILE, 'utf8');
const call = async (url: string, method: string, params: unknown[] = []) =>
  JSON.parse((await postJson(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).body) as {
    result?: unknown;
    error?: { message: string };
  };

describe('conformance chain file', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'l2node-chain-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a fresh build reproduces the committed file byte for byte (npm run conformance:chain)', async () => {
    assert.equal(renderChainFile(await buildChain()), committed);
  });

  it('has what the fixtures rely on: checkpoints of one and two blocks, tips apart, pending txs, an L1→L2 message', () => {
    const file = readChainFile(CHAIN_FILE);
    const sizes = file.checkpoints.map((c) => c.checkpoint.blocks.length);
    assert.ok(sizes.includes(1) && sizes.includes(2), `checkpoint sizes ${sizes}`);
    const tips = file.tips as {
      proposed: { number: number };
      checkpointed: { block: { number: number } };
      proven: { block: { number: number } };
      finalized: { block: { number: number } };
    };
    assert.ok(
      tips.finalized.block.number < tips.proven.block.number &&
        tips.proven.block.number < tips.checkpointed.block.number &&
        tips.checkpointed.block.number < tips.proposed.number,
    );
    assert.equal(file.pendingTxs.length, 3);
    assert.equal(file.l1ToL2Messages.length, 1);
  });

  describe('served with --import-chain', () => {
    let node: StartedNode;
    before(async () => (node = await startNode(['--import-chain', CHAIN_FILE])));
    after(() => node.stop());

    it("serves the file's tips, blocks and pending txs, and builds nothing", async () => {
      const file = readChainFile(CHAIN_FILE);
      assert.deepEqual((await call(node.publicUrl, 'node_getL2Tips')).result, file.tips);
      assert.deepEqual((await call(node.publicUrl, 'node_getBlocks', [1, 100])).result, file.blocks);
      assert.deepEqual((await call(node.publicUrl, 'node_getPendingTxs', [100])).result, file.pendingTxs);
      await new Promise((r) => setTimeout(r, 700));
      assert.equal(
        (await call(node.publicUrl, 'node_getBlockNumber')).result,
        file.blocks.length,
        'sequencer off: no block added',
      );
      assert.equal((await call(node.publicUrl, 'node_getPendingTxCount')).result, 3, 'frozen clock: nothing expires');
    });
  });

  it('refuses a file whose block does not verify (one note hash changed)', async () => {
    const file = JSON.parse(committed) as { blocks: { body: { txEffects: { noteHashes: string[] }[] } }[] };
    file.blocks[2]!.body.txEffects[0]!.noteHashes[0] = `0x${'0'.repeat(60)}beef`;
    const tampered = join(dir, 'tampered.json');
    writeFileSync(tampered, JSON.stringify(file));
    await assert.rejects(startNode(['--import-chain', tampered]), /block 3 refused/);
  });
});
