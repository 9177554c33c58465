/**
 * Consensus gossip checks and the validator duties: proposals and attestations with a bad
 * signature, a non-committee signer, the wrong proposer, a stale or future slot are refused;
 * repeats are ignored and a second payload for a slot refused; a proposal is attested only when
 * it matches our chain, and an accepted attestation reaches the sentinel's input.
 * @module
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCommittees, proposalDigest } from '../../../src/impl/validators/committee.ts';
import { ConsensusMessageChecker } from '../../../src/impl/validators/consensus-validation.ts';
import { ConsensusDuties, type ConsensusChain } from '../../../src/impl/validators/consensus-duties.ts';
import { ValidatorKeyring } from '../../../src/impl/validators/keyring.ts';
import { signDigest } from '../../../src/impl/validators/signer.ts';
import type { CheckpointAttestation, CheckpointProposal } from '../../../src/impl/p2p/consensus-messages.ts';
import { tempDir, testAddress, testFeeRecipient, testKey, writeKeystore } from './helpers.ts';

const key = (label: string) =>
  Uint8Array.from(
    testKey(label)
      .slice(2)
      .match(/../g)!
      .map((b) => parseInt(b, 16)),
  );
const members = ['a', 'b', 'c'];
const committees = createCommittees({ validatorSet: members.map(testAddress), committeeSize: 3, slotsPerEpoch: 4 });
const labelOf = (address: string) => members.find((m) => testAddress(m) === address)!;
const SLOT = 10;
const ARCHIVE = 0x1234n;

function proposal(slot = SLOT, archive = ARCHIVE, signerLabel?: string): CheckpointProposal {
  const proposer = committees.proposerOf(slot)!;
  const signature = signDigest(proposalDigest(slot, archive, proposer), key(signerLabel ?? labelOf(proposer)));
  return { slot, blockNumber: 7, blockHash: 0xabcn, archive, proposer, signature };
}

function attestation(label: string, slot = SLOT, archive = ARCHIVE, signerLabel = label): CheckpointAttestation {
  const proposer = committees.proposerOf(slot)!;
  return {
    slot,
    archive,
    proposer,
    attester: testAddress(label),
    signature: signDigest(proposalDigest(slot, archive, proposer), key(signerLabel)),
  };
}

const attesterOf = (slot: number) => members.find((m) => testAddress(m) !== committees.proposerOf(slot))!;

describe('ConsensusMessageChecker', () => {
  const checker = (current = SLOT + 1) =>
    new ConsensusMessageChecker({ committees, currentSlot: () => current, recentSlots: 4 });

  it('accepts a proposal signed by the slot proposer once, ignores its copy, refuses a second payload', () => {
    const c = checker();
    assert.deepEqual(c.checkProposal(proposal()), { verdict: 'accept' });
    assert.equal(c.checkProposal(proposal()).verdict, 'ignore');
    const other = c.checkProposal(proposal(SLOT, ARCHIVE + 1n));
    assert.equal(other.verdict, 'reject');
    assert.match((other as { reason: string }).reason, /second, different proposal/);
  });

  it('refuses a bad signature, the wrong proposer, a stale slot and a future slot', () => {
    const c = checker();
    const wrongSigner = members.find((m) => testAddress(m) !== committees.proposerOf(SLOT))!;
    const cases: [CheckpointProposal, RegExp][] = [
      [proposal(SLOT, ARCHIVE, wrongSigner), /does not recover to proposer/],
      [{ ...proposal(), signature: new Uint8Array(65) }, /does not recover/],
      [{ ...proposal(), proposer: testAddress(wrongSigner) }, /is not the proposer of slot 10/],
      [proposal(SLOT - 4), /slot 6 is stale/],
      [proposal(SLOT + 2), /slot 12 has not started/],
    ];
    for (const [p, reason] of cases) {
      const v = c.checkProposal(p);
      assert.equal(v.verdict, 'reject');
      assert.match((v as { reason: string }).reason, reason);
    }
    // A forgery is not remembered: the real proposal is still accepted afterwards.
    assert.equal(c.checkProposal(proposal()).verdict, 'accept');
  });

  it('attestations: committee member accepted once; non-member, bad signature, stale slot and equivocation refused', () => {
    const c = checker();
    const member = attesterOf(SLOT);
    const outsider = 'z';
    const cases: [CheckpointAttestation, RegExp][] = [
      [attestation(outsider), /not in the committee/],
      [attestation(member, SLOT, ARCHIVE, outsider), /does not recover to attester/],
      [{ ...attestation(member), proposer: attestation(member).attester }, /is not the proposer/],
      [attestation(member, SLOT - 5), /stale/],
    ];
    for (const [a, reason] of cases) {
      const v = c.checkAttestation(a);
      assert.equal(v.verdict, 'reject', reason.source);
      assert.match((v as { reason: string }).reason, reason);
    }
    assert.deepEqual(c.checkAttestation(attestation(member)), { verdict: 'accept' });
    assert.equal(c.checkAttestation(attestation(member)).verdict, 'ignore');
    assert.equal(c.checkAttestation(attestation(member, SLOT, ARCHIVE + 1n)).verdict, 'reject');
  });
});

describe('ConsensusDuties', () => {
  type Block = Awaited<ReturnType<ConsensusChain['findBlock']>> & object;
  const block = (hash: bigint, archive: bigint, slot: number): Block => ({
    hash,
    archive: { root: archive },
    header: { globalVariables: { slotNumber: slot } },
  });

  function duties(
    ourLabel: string,
    blocks: Map<number, Block>,
    checkpoints: Awaited<ReturnType<ConsensusChain['checkpointsFrom']>> = [],
    fetchBlocks?: () => void,
  ) {
    const dir = tempDir();
    const keyring = ValidatorKeyring.open({
      path: writeKeystore(dir, 'k.json', [{ attester: testKey(ourLabel), feeRecipient: testFeeRecipient(ourLabel) }]),
    });
    const published = { proposals: [] as CheckpointProposal[], attestations: [] as CheckpointAttestation[] };
    let latestCp = 0;
    const chain: ConsensusChain = {
      findBlock: async (n) => blocks.get(n),
      latestCheckpointNumber: async () => latestCp,
      checkpointsFrom: async (n, limit) => checkpoints.filter((c) => c.number >= n).slice(0, limit),
    };
    const d = new ConsensusDuties({
      committees,
      keyring,
      chain,
      currentSlot: () => SLOT + 1,
      blockWaitMs: 100,
      ...(fetchBlocks === undefined ? {} : { fetchBlocks }),
      publisher: {
        publishProposal: async (p) => (published.proposals.push(p), 1),
        publishAttestation: async (a) => (published.attestations.push(a), 1),
      },
    });
    return { d, published, setLatestCheckpoint: (n: number) => (latestCp = n) };
  }

  it("attests to a proposal matching our chain, and keeps the proposer's and our signatures for the sentinel", async () => {
    const me = attesterOf(SLOT);
    const { d, published } = duties(me, new Map([[7, block(0xabcn, ARCHIVE, SLOT)]]));
    assert.equal(await d.onProposal(proposal()), 'accept');
    assert.equal(published.attestations.length, 1);
    const a = published.attestations[0]!;
    assert.equal(a.attester, testAddress(me));
    assert.equal(a.archive, ARCHIVE);
    assert.equal(d.attestationsFor(SLOT).length, 2, "the proposer's signature and ours");
    assert.equal(await d.onProposal(proposal()), 'ignore', 'a copy is not attested twice');
    assert.equal(published.attestations.length, 1);
  });

  it('refuses a proposal that differs from our re-executed chain, ignores one whose block is not here', async () => {
    const me = attesterOf(SLOT);
    for (const [blocks, field] of [
      [new Map([[7, block(0xdddn, ARCHIVE, SLOT)]]), 'hash'],
      [new Map([[7, block(0xabcn, ARCHIVE + 1n, SLOT)]]), 'archive'],
      [
        new Map([
          [7, block(0xabcn, ARCHIVE, SLOT)],
          [8, block(0xeeen, 0x99n, SLOT)],
        ]),
        'not the last block of the slot',
      ],
    ] as const) {
      const { d, published } = duties(me, blocks);
      assert.equal(await d.onProposal(proposal()), 'reject', field);
      assert.equal(published.attestations.length, 0);
    }
    const { d, published } = duties(me, new Map());
    assert.equal(await d.onProposal(proposal()), 'ignore');
    assert.equal(published.attestations.length, 0);
  });

  it('a proposal whose block is not here yet asks for it once, and is attested when it arrives within the wait', async () => {
    const me = attesterOf(SLOT);
    const blocks = new Map<number, Block>();
    let asked = 0;
    const { d, published } = duties(me, blocks, [], () => {
      asked++;
      // The import the proposal asked for lands a moment later.
      setTimeout(() => blocks.set(7, block(0xabcn, ARCHIVE, SLOT)), 20);
    });
    assert.equal(await d.onProposal(proposal()), 'accept');
    assert.equal(asked, 1);
    assert.equal(published.attestations.length, 1);
  });

  it("a slot's attestations are complete once every committee member but its proposer has one here", async () => {
    const me = attesterOf(SLOT);
    const other = members.find((m) => testAddress(m) !== committees.proposerOf(SLOT) && m !== me)!;
    const { d } = duties(me, new Map([[7, block(0xabcn, ARCHIVE, SLOT)]]));
    assert.equal(d.attestationsComplete(SLOT), false);
    assert.equal(await d.onProposal(proposal()), 'accept');
    assert.equal(d.attestationsComplete(SLOT), false, "ours and the proposer's, the third member's missing");
    assert.equal(await d.onAttestation(attestation(other)), 'accept');
    assert.equal(d.attestationsComplete(SLOT), true);
    assert.equal(d.attestationsComplete(SLOT + 1), false);
  });

  it('keeps accepted attestations for their slot and refuses forged ones', async () => {
    const { d } = duties(attesterOf(SLOT), new Map());
    const other = members.find((m) => testAddress(m) !== committees.proposerOf(SLOT) && m !== attesterOf(SLOT))!;
    assert.equal(await d.onAttestation(attestation(other, SLOT, ARCHIVE, 'z')), 'reject');
    assert.equal(d.attestationsFor(SLOT).length, 0);
    assert.equal(await d.onAttestation(attestation(other)), 'accept');
    assert.equal(d.attestationsFor(SLOT).length, 1);
    assert.equal(d.attestationsFor(SLOT - 1).length, 0);
  });

  it('proposes each checkpoint sealed after start whose slot our validator proposes, and nothing else', async () => {
    const me = labelOf(committees.proposerOf(SLOT)!);
    const cp = (number: number, slot: number) => ({
      number,
      archive: { root: ARCHIVE + BigInt(number) },
      startBlock: number,
      blockCount: 1,
      header: { slotNumber: slot },
    });
    const notOurs = [SLOT - 1, SLOT - 2, SLOT - 3].find((s) => committees.proposerOf(s) !== testAddress(me))!;
    const blocks = new Map([
      [1, block(0x1n, ARCHIVE + 1n, notOurs)],
      [2, block(0x2n, ARCHIVE + 2n, SLOT)],
    ]);
    const checkpoints = [cp(1, notOurs), cp(2, SLOT)];
    const { d, published, setLatestCheckpoint } = duties(me, blocks, checkpoints);
    setLatestCheckpoint(0);
    await d.afterStep();
    assert.equal(published.proposals.length, 1);
    const p = published.proposals[0]!;
    assert.deepEqual(
      [p.slot, p.blockNumber, p.blockHash, p.archive, p.proposer],
      [SLOT, 2, 0x2n, ARCHIVE + 2n, testAddress(me)],
    );
    // It passes a peer's checks, and is not proposed again on the next step.
    assert.equal(
      new ConsensusMessageChecker({ committees, currentSlot: () => SLOT + 1 }).checkProposal(p).verdict,
      'accept',
    );
    await d.afterStep();
    assert.equal(published.proposals.length, 1);
  });
});
