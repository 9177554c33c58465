/**
 * Issue 9, last bullet: validators on different nodes attest to each other's proposals over the
 * network. Two node processes on loopback, each running its own validator (`--keystore`) and
 * registering the other's (`--registered-validators`), so both share one committee of two and take
 * turns proposing by slot. Each imports the other's blocks from p2p and re-executes them, the
 * proposer gossips its checkpoint proposal, the other node verifies it against its own chain and
 * gossips its attestation. Each node's `node_getValidatorsStats` then shows the remote validator
 * with `attestation-sent` and `checkpoint-mined` entries (never `attestation-missed`); once one
 * node is stopped, the other records its validator missing attestations and its slots' blocks.
 * Restarted from an empty chain (far behind), that node catches up with its peer before it builds
 * in its next slot (issue 9's fork-on-start): its blocks extend the same chain, and the other node
 * imports them and records its attestations and proposals again.
 * @module
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { hexToBytes } from '@noble/hashes/utils.js';
import { createCommittees } from '../../src/impl/validators/committee.ts';
import { addressOfPrivateKey } from '../../src/impl/validators/signer.ts';
import { chainFlags, NODE_BIN, ok, p2pAddress, waitFor } from './node-harness.ts';
import { type NodeProcess, startNode, tempDir } from './server-process-harness.ts';

/** Test-only keys (not funded, not documented dev keys). */
const KEY_A = '0x' + '11'.repeat(32);
const KEY_B = '0x' + '33'.repeat(32);
const A = addressOfPrivateKey(hexToBytes(KEY_A.slice(2)));
const B = addressOfPrivateKey(hexToBytes(KEY_B.slice(2)));

type Entry = { slot: number; status: string };

async function history(node: NodeProcess, validator: string): Promise<Entry[]> {
  const s = await ok(node.publicUrl, 'node_getValidatorsStats');
  return s.stats[validator]?.history ?? [];
}

/**
 * Both nodes hold the same blocks up to the lower tip, each built by its slot's proposer (fee
 * recipient 0xaaaa for A, 0xbbbb for B); their slots and fee recipients.
 */
async function sameChain(
  x: NodeProcess,
  y: NodeProcess,
  proposerOf: (slot: number) => string | undefined,
): Promise<{ slot: number; fee: string }[]> {
  const tip = Math.min(
    await ok<number>(x.publicUrl, 'node_getBlockNumber'),
    await ok<number>(y.publicUrl, 'node_getBlockNumber'),
  );
  const out: { slot: number; fee: string }[] = [];
  for (let n = 1; n <= tip; n++) {
    const [bx, by] = await Promise.all([ok(x.publicUrl, 'node_getBlock', n), ok(y.publicUrl, 'node_getBlock', n)]);
    assert.deepEqual(bx.archive, by.archive, `block ${n} is the same on both nodes`);
    const slot = Number(BigInt(bx.header.globalVariables.slotNumber));
    const fee = BigInt(bx.header.globalVariables.feeRecipient);
    assert.equal(
      fee,
      proposerOf(slot) === A ? 0xaaaan : 0xbbbbn,
      `block ${n} (slot ${slot}) is built by the slot's proposer`,
    );
    out.push({ slot, fee: fee.toString(16) });
  }
  return out;
}

const count = (h: Entry[], status: string, after = 0) => h.filter((e) => e.status === status && e.slot > after).length;

describe('validators on two nodes attest to each other over p2p', { timeout: 90_000 }, () => {
  it("each node records the other validator's attestations and proposals; a stopped one shows as missing", async () => {
    const committees = createCommittees({ validatorSet: [A, B], committeeSize: 2, slotsPerEpoch: 2 });
    const early = Array.from({ length: 8 }, (_, i) => committees.proposerOf(i + 1));
    assert.ok(
      early.includes(A) && early.includes(B),
      `both validators propose some of the first slots: ${early.join(' ')}`,
    );

    const dir = await tempDir();
    const keystore = async (name: string, key: string, fee: string) => {
      const file = join(dir, `${name}.json`);
      await writeFile(
        file,
        JSON.stringify({
          schemaVersion: 1,
          validators: [{ attester: key, feeRecipient: '0x' + '0'.repeat(60) + fee }],
        }),
      );
      return file;
    };
    // Slot 1 starts 10 s out, so both nodes usually run and are connected by then.
    const genesis = Math.floor(Date.now() / 1000) + 10;
    const common = [
      ...chainFlags(genesis),
      '--p2p-enabled',
      '--p2p-port',
      '0',
      '--build-empty-blocks',
      '--data-directory',
      '',
    ];
    /** The current slot (1-second slots). */
    const slotNow = () => Math.floor(Date.now() / 1000) - genesis;
    const nodes: NodeProcess[] = [];
    const logs: [string, NodeProcess][] = [];
    try {
      const a = await startNode(
        [...common, '--keystore', await keystore('a', KEY_A, 'aaaa'), '--registered-validators', B],
        { cwd: await tempDir(), node: NODE_BIN },
      );
      nodes.push(a);
      logs.push(['a', a]);
      const bArgs = [
        ...common,
        '--keystore',
        await keystore('b', KEY_B, 'bbbb'),
        '--registered-validators',
        A,
        '--p2p-bootstrap-peers',
        p2pAddress(a),
      ];
      const b = await startNode(bArgs, { cwd: await tempDir(), node: NODE_BIN });
      nodes.push(b);
      logs.push(['b', b]);
      const status = async (n: NodeProcess) => (await fetch(`${n.publicUrl}/status`)).json() as Promise<any>;
      await waitFor(
        'the two nodes connected',
        async () => ((await status(a)).p2p.peers >= 1 && (await status(b)).p2p.peers >= 1 ? true : undefined),
        8_000,
      );
      // Usually both run before slot 1. On a slow machine one may start late: then it catches up
      // from its peer before it attests or builds (as b2 below), so the checks count from the slot in
      // which each validator first attested, not from genesis.

      // Each node: the other's validator attested (several times) and had a checkpoint mined.
      for (const [here, remote] of [
        [a, B],
        [b, A],
      ] as const) {
        await waitFor(
          `${remote} attesting and proposing, seen by ${here.publicUrl}`,
          async () => {
            const h = await history(here, remote);
            return count(h, 'attestation-sent') >= 2 && count(h, 'checkpoint-mined') >= 1 ? h : undefined;
          },
          40_000,
        );
      }
      // One chain: both nodes hold the same blocks, built by both proposers in their own slots.
      const blocks = await sameChain(a, b, committees.proposerOf);
      assert.deepEqual([...new Set(blocks.map((x) => x.fee))].sort(), ['aaaa', 'bbbb'], 'both proposers built blocks');
      for (const [here, remote] of [
        [a, B],
        [b, A],
      ] as const) {
        const h = await history(here, remote);
        const firstSent = Math.min(...h.filter((e) => e.status === 'attestation-sent').map((e) => e.slot));
        assert.equal(
          count(h, 'attestation-missed', firstSent),
          0,
          `no missed attestation while both ran, from its first one (slot ${firstSent}): ${JSON.stringify(h)}`,
        );
        const own = await history(here, remote === A ? B : A);
        assert.ok(count(own, 'checkpoint-mined') >= 1, 'the local validator proposes too');
      }

      // Stop b: a keeps building its slots and records b's validator missing attestations and blocks.
      const stoppedAt = slotNow();
      nodes.splice(nodes.indexOf(b), 1);
      assert.equal(await b.stop('SIGTERM'), 0);
      const after = await waitFor(
        'b missing after its stop',
        async () => {
          const h = await history(a, B);
          return count(h, 'attestation-missed', stoppedAt + 1) >= 1 && count(h, 'blocks-missed', stoppedAt + 1) >= 1
            ? h
            : undefined;
        },
        30_000,
      );
      assert.equal(
        count(after, 'attestation-sent', stoppedAt + 1),
        0,
        `no attestation from a stopped node: ${JSON.stringify(after)}`,
      );
      const one = await ok(a.publicUrl, 'node_getValidatorStats', B);
      assert.ok(one.validator.missedAttestations.count >= 1);
      assert.ok(one.validator.lastAttestation !== undefined, 'its earlier attestations are still on record');

      // b again, from an empty chain: it catches up with a before building in its slots, so a
      // imports its blocks (a fork would be refused there) and records it attesting and proposing.
      const b2 = await startNode(bArgs, { cwd: await tempDir(), node: NODE_BIN });
      nodes.push(b2);
      logs.push(['b2', b2]);
      const rejoined = slotNow();
      await waitFor(
        'b back after its restart: attesting and proposing, seen by a',
        async () => {
          const h = await history(a, B);
          return count(h, 'attestation-sent', rejoined) >= 1 && count(h, 'checkpoint-mined', rejoined) >= 1
            ? h
            : undefined;
        },
        30_000,
      );
      const again = await sameChain(a, b2, committees.proposerOf);
      assert.ok(
        again.some((x) => x.fee === 'bbbb' && x.slot > rejoined),
        'the restarted node built on the common chain',
      );
    } catch (err) {
      // The nodes' logs are what explains a failure: keep them beside the keystores.
      for (const [name, n] of logs) await writeFile(join(dir, `${name}.log`), n.stderr());
      console.error(`node logs: ${logs.map(([name]) => join(dir, `${name}.log`)).join(' ')}`);
      throw err;
    } finally {
      for (const n of nodes) assert.equal(await n.stop('SIGTERM'), 0);
    }
  });
});
