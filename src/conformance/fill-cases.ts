/**
 * The script of recorded conformance cases (`npm run conformance:fill`): method, params,
 * description, flags. Cases marked `waitingFor` need an engine part that is not built yet; they
 * are listed by the fill tool, not run. A case whose method still answers -32001 is not recorded.
 * @module
 */
import type { FillCase } from './fill-case.ts';
import { scriptedTx, SCRIPT } from './chain/build.ts';
import type { TxSpec } from './chain/build.ts';
import { CHAIN_FILE } from './chain/paths.ts';
import { readChainFile } from '../impl/chain-import-file.ts';
import {
  FEE_JUICE_BALANCES_SLOT,
  feeJuiceBalanceLeafSlot,
  PROTOCOL_CONTRACT_ADDRESSES,
} from '../impl/chain/protocol.ts';
import { fromWireBlock } from '../impl/encoding/wire/blocks-decode.ts';
import { anchorHeaderFromWire } from '../impl/tx/anchor-header.ts';
import { decodeTx } from '../impl/tx/tx-wire.ts';
import { deriveStorageSlotInMap } from '../impl/world-state/slots.ts';
import { hex32 } from '../impl/encoding/hex.ts';

const field = (i: number) => hex32(BigInt(i));
const fields = (n: number) => Array.from({ length: n }, (_, i) => field(i + 1));
const signatures = (n: number) => Array.from({ length: n }, (_, i) => `transfer_${i}(Field,Field)`);
const HASH = `0x${'ab'.repeat(32)}`;

/** Node information that needs configuration only. */
const NODE_INFO: FillCase[] = [
  {
    method: 'node_getChainId',
    name: 'dev-chain',
    description: 'L1 chain id of the deterministic dev chain (31337).',
    params: [],
  },
  {
    method: 'node_getVersion',
    name: 'dev-chain',
    description: 'Rollup version of the deterministic dev chain (1).',
    params: [],
  },
  // The package version differs between implementations: only its shape is conformance.
  {
    method: 'node_getNodeVersion',
    name: 'any-version',
    description: 'The node software version string.',
    params: [],
    flags: ['schema-only'],
  },
];

/** SPEC §8 limits (and the documents' other bounds): just inside is served, just outside is -32602. */
const LIMITS: FillCase[] = [
  ...outside('node_getBlocks', [
    ['from-zero', 'from 0 is below the minimum of 1 (SPEC §8).', [0, 1]],
    ['limit-zero', 'limit 0 is below the minimum of 1 (SPEC §8).', [1, 0]],
    ['limit-101', 'limit 101 is above the maximum of 100 (SPEC §8).', [1, 101]],
  ]),
  { method: 'node_getBlocks', name: 'limit-100', description: 'limit 100, the maximum (SPEC §8).', params: [1, 100] },
  {
    method: 'node_getBlocks',
    name: 'from-1-limit-1',
    description: 'The smallest valid range (SPEC §8).',
    params: [1, 1],
  },
  ...outside('node_getPendingTxs', [
    ['limit-zero', 'limit 0 is below the minimum of 1 (SPEC §8).', [0]],
    ['limit-101', 'limit 101 is above the maximum of 100 (SPEC §8).', [101]],
  ]),
  { method: 'node_getPendingTxs', name: 'limit-100', description: 'limit 100, the maximum (SPEC §8).', params: [100] },
  {
    method: 'node_getPendingTxs',
    name: 'limit-default',
    description: 'limit absent: the default of 100 (SPEC §8).',
    params: [],
  },
  ...outside('node_findLeavesIndexes', [
    ['leaf-values-1001', '1001 leaf values is above the maximum of 1000 (SPEC §8).', ['latest', 1, fields(1001)]],
    ['tree-id-7', 'treeId 7 is above the range 0 to 6 (SPEC §8).', ['latest', 7, [field(1)]]],
    ['tree-id-negative', 'treeId -1 is below the range 0 to 6 (SPEC §8).', ['latest', -1, [field(1)]]],
  ]),
  {
    method: 'node_findLeavesIndexes',
    name: 'leaf-values-1000',
    description: '1000 leaf values, the maximum (SPEC §8).',
    params: ['latest', 1, fields(1000)],
  },
  ...outside('node_getPrivateLogs', [
    ['from-zero', 'from 0 is below the minimum of 1 (SPEC §8).', [0, 1]],
    ['limit-1001', 'limit 1001 blocks is above the maximum of 1000 (SPEC §8).', [1, 1001]],
  ]),
  {
    method: 'node_getPrivateLogs',
    name: 'limit-1000',
    description: 'limit 1000 blocks, the maximum (SPEC §8).',
    params: [1, 1000],
  },
  {
    method: 'node_getPrivateLogs',
    name: 'limit-zero',
    description: 'limit 0 blocks: [] (SPEC §8 states only the maximum).',
    params: [1, 0],
  },
  ...outside('node_getLogsByTags', [
    ['tags-1001', '1001 tags is above the maximum of 1000 (SPEC §8).', [fields(1001)]],
    ['logs-per-tag-11', 'logsPerTag 11 is above the maximum of 10 (SPEC §8).', [[field(1)], 11]],
    ['logs-per-tag-zero', 'logsPerTag 0 is below the minimum of 1 (SPEC §8).', [[field(1)], 0]],
  ]),
  {
    method: 'node_getLogsByTags',
    name: 'tags-1000',
    description: '1000 tags, the maximum (SPEC §8).',
    params: [fields(1000)],
  },
  {
    method: 'node_getLogsByTags',
    name: 'logs-per-tag-10',
    description: 'logsPerTag 10, the maximum (SPEC §8).',
    params: [[field(1)], 10],
  },
  ...outside('node_registerContractFunctionSignatures', [
    ['signatures-101', '101 signatures is above the maximum of 100 (SPEC §8).', [signatures(101)]],
  ]),
  {
    method: 'node_registerContractFunctionSignatures',
    name: 'signatures-100',
    description: '100 signatures, the maximum (SPEC §8).',
    params: [signatures(100)],
    stateChanging: true,
  },
  ...outside('node_getTxsByHash', [
    ['hashes-51', '51 hashes is above the document maximum of 50.', [Array.from({ length: 51 }, () => HASH)]],
  ]),
  ...outside('node_getCheckpoints', [['limit-51', 'limit 51 is above the document maximum of 50.', [1, 51]]]),
];

// ---------------------------------------------------------------------------------------------
// Cases on the deterministic chain (test/conformance/chain/chain.json, loaded with --import-chain):
// 8 blocks, checkpoints 1–6 (blocks 1–7), finalized 3 (block 4), proven 5 (block 6), three
// pending txs. Every value below is read from the chain file, never typed in.
// ---------------------------------------------------------------------------------------------
interface WireBlock {
  hash?: string;
  archive: { root: string };
  header: Record<string, unknown> & { globalVariables: { blockNumber: number } };
  body: {
    txEffects: {
      txHash: string;
      noteHashes: string[];
      nullifiers: string[];
      l2ToL1Msgs: string[];
      privateLogs: { fields: string[] }[];
    }[];
  };
}
const chain = readChainFile(CHAIN_FILE);
const blocks = chain.blocks as WireBlock[];
const blockAt = (n: number) => blocks[n - 1]!;
const blockHash = (n: number) => hex32(fromWireBlock(blockAt(n)).hash);
const tips = chain.tips as { proposed: { number: number } };
const TIP = tips.proposed.number;
const BEYOND = TIP + 1;
const effect = (n: number, i = 0) => blockAt(n).body.txEffects[i]!;
const pendingHashes = (chain.pendingTxs as { txHash: string }[]).map((t) => t.txHash);
const MESSAGE = chain.l1ToL2Messages[0]!.message;
const UNKNOWN = field(0xdead);
const tag = (x: bigint) => hex32(x);
const [PAYER_A, PAYER_B] = SCRIPT.payers;
const FEE_JUICE = hex32(PROTOCOL_CONTRACT_ADDRESSES.feeJuice);
const balanceSlot = (account: bigint) => hex32(deriveStorageSlotInMap(FEE_JUICE_BALANCES_SLOT, account));
const anchor = anchorHeaderFromWire(blockAt(TIP).header as never);
const tx = (spec: Partial<TxSpec> & { seed: number }, chainId?: bigint) =>
  scriptedTx(anchor, { payer: PAYER_A, priority: 1n, ...spec }, chainId).wire;
/** A pending tx's first nullifier (pending tx 0 is the highest priority: payer C, priority 30). */
const pendingNullifier = (i: number): bigint => {
  const data = decodeTx(chain.pendingTxs[i]).data;
  if (data.isForPublic) throw new Error('the pending txs are private-only');
  return data.forRollup.end.nullifiers[0]!;
};

const BLOCKS: FillCase[] = [
  { method: 'node_getBlockNumber', name: 'chain', description: 'The latest proposed block of the chain.', params: [] },
  {
    method: 'node_getProvenBlockNumber',
    name: 'chain',
    description: 'The last block of the last proven checkpoint.',
    params: [],
  },
  {
    method: 'node_getL2Tips',
    name: 'chain',
    description: 'Proposed 8, checkpointed 7 (cp 6), proven 6 (cp 5), finalized 4 (cp 3).',
    params: [],
  },
  {
    method: 'node_getBlock',
    name: 'block-1',
    description: 'Block 1: two txs with note hashes, nullifiers, tagged private logs and L2→L1 messages.',
    params: [1],
  },
  {
    method: 'node_getBlock',
    name: 'block-2-class-log',
    description: 'Block 2, second block of checkpoint 1, with a contract class log.',
    params: [2],
  },
  {
    method: 'node_getBlock',
    name: 'latest',
    description: '`latest` is the proposed tip (block 8, not checkpointed).',
    params: ['latest'],
  },
  { method: 'node_getBlock', name: 'genesis', description: 'Block 0 is the genesis block.', params: [0] },
  { method: 'node_getBlock', name: 'beyond-tip', description: 'A block above the tip is null.', params: [BEYOND] },
  { method: 'node_getBlocks', name: 'all', description: 'Every block from 1.', params: [1, 100] },
  {
    method: 'node_getBlocks',
    name: 'partial-page',
    description: 'A page that runs past the tip holds only the existing blocks.',
    params: [6, 10],
  },
  { method: 'node_getBlocks', name: 'beyond-tip', description: 'A range above the tip is empty.', params: [BEYOND, 5] },
  { method: 'node_getBlockHeader', name: 'absent', description: 'No parameter: the latest header.', params: [] },
  {
    method: 'node_getBlockHeader',
    name: 'block-3',
    description: 'The header of block 3 (the block that inserted the L1→L2 message).',
    params: [3],
  },
  { method: 'node_getBlockHeader', name: 'genesis', description: 'The genesis header.', params: [0] },
  {
    method: 'node_getBlockHeader',
    name: 'beyond-tip',
    description: 'A header above the tip is null.',
    params: [BEYOND],
  },
  { method: 'node_getBlockByHash', name: 'block-3', description: 'Block 3 by its hash.', params: [blockHash(3)] },
  { method: 'node_getBlockByHash', name: 'unknown', description: 'An unknown hash is null.', params: [UNKNOWN] },
  {
    method: 'node_getBlockByArchive',
    name: 'block-2',
    description: 'Block 2 by the archive root after it.',
    params: [blockAt(2).archive.root],
  },
  {
    method: 'node_getBlockByArchive',
    name: 'unknown',
    description: 'An unknown archive root is null.',
    params: [UNKNOWN],
  },
  {
    method: 'node_getBlockHeaderByArchive',
    name: 'block-5',
    description: 'The header of block 5 by its archive root.',
    params: [blockAt(5).archive.root],
  },
  {
    method: 'node_getBlockHeaderByArchive',
    name: 'unknown',
    description: 'An unknown archive root is null.',
    params: [UNKNOWN],
  },
  { method: 'node_getCheckpointNumber', name: 'chain', description: 'The latest checkpoint.', params: [] },
  {
    method: 'node_getCheckpointedBlockNumber',
    name: 'chain',
    description: 'The last block of the latest checkpoint.',
    params: [],
  },
  {
    method: 'node_getCheckpoints',
    name: 'all',
    description: 'Every checkpoint with its blocks; limit 50, the document maximum.',
    params: [1, 50],
  },
  { method: 'node_getCheckpoints', name: 'last', description: 'The last checkpoint alone.', params: [6, 1] },
  { method: 'node_getCheckpoints', name: 'beyond-tip', description: 'No checkpoint after the latest.', params: [7, 5] },
  {
    method: 'node_getCheckpointedBlocks',
    name: 'all',
    description: 'Checkpointed blocks: block 8 (proposed only) is left out.',
    params: [1, 10],
  },
  {
    method: 'node_getCheckpointedBlocks',
    name: 'proposed-only',
    description: 'A proposed but not checkpointed block is not returned.',
    params: [8, 1],
  },
  { method: 'node_getCheckpointsDataForEpoch', name: 'epoch-0', description: 'Epoch 0: checkpoints 1–3.', params: [0] },
  { method: 'node_getCheckpointsDataForEpoch', name: 'epoch-2', description: 'Epoch 2: checkpoint 6.', params: [2] },
  {
    method: 'node_getCheckpointsDataForEpoch',
    name: 'empty-epoch',
    description: 'An epoch without checkpoints.',
    params: [5],
  },
];

const TXS: FillCase[] = [
  {
    method: 'node_getTxReceipt',
    name: 'mined',
    description: 'A mined tx of block 1 (finalized).',
    params: [effect(1).txHash],
  },
  {
    method: 'node_getTxReceipt',
    name: 'mined-proposed',
    description: 'The tx of block 8 (proposed only).',
    params: [effect(8).txHash],
  },
  { method: 'node_getTxReceipt', name: 'pending', description: 'A tx in the pool.', params: [pendingHashes[0]] },
  { method: 'node_getTxReceipt', name: 'unknown-hash', description: 'An unknown tx hash: dropped.', params: [UNKNOWN] },
  {
    method: 'node_getTxEffect',
    name: 'mined',
    description: 'The effect of the contract-class-log tx (block 2).',
    params: [effect(2).txHash],
  },
  {
    method: 'node_getTxEffect',
    name: 'pending',
    description: 'A pending tx has no effect yet.',
    params: [pendingHashes[1]],
  },
  {
    method: 'node_getTxByHash',
    name: 'pending',
    description: 'A pending tx as it was sent.',
    params: [pendingHashes[2]],
  },
  {
    method: 'node_getTxByHash',
    name: 'mined',
    description: 'A mined tx is no longer in the pool.',
    params: [effect(1).txHash],
  },
  {
    method: 'node_getTxsByHash',
    name: 'mixed',
    description: 'Pending txs in request order; unknown and mined hashes left out.',
    params: [[pendingHashes[1], UNKNOWN, effect(1).txHash, pendingHashes[0]]],
  },
  {
    method: 'node_getTxsByHash',
    name: 'hashes-50',
    description: '50 hashes, the document maximum.',
    params: [Array.from({ length: 50 }, (_, i) => pendingHashes[i % 3])],
  },
  { method: 'node_getPendingTxs', name: 'limit-1', description: 'The highest-priority pending tx.', params: [1] },
  {
    method: 'node_getPendingTxs',
    name: 'after-first',
    description: 'The page after the highest-priority tx.',
    params: [2, pendingHashes[0]],
  },
  {
    method: 'node_getPendingTxs',
    name: 'after-unknown',
    description: 'After a hash that is not pending: empty.',
    params: [10, UNKNOWN],
  },
  { method: 'node_getPendingTxCount', name: 'chain', description: 'Three txs pending.', params: [] },
  {
    method: 'node_getMaxPriorityFees',
    name: 'chain',
    description: 'The priority fees of the highest-priority pending tx.',
    params: [],
  },
  {
    method: 'node_getCurrentMinFees',
    name: 'chain',
    description: "Minimum fees per gas at the chain's state.",
    params: [],
  },
  {
    method: 'node_isValidTx',
    name: 'valid',
    description: 'A fresh tx of a funded account is valid (no options).',
    params: [tx({ seed: 40 })],
  },
  {
    method: 'node_isValidTx',
    name: 'valid-simulation',
    description: 'The same with options {isSimulation, skipFeeEnforcement}.',
    params: [tx({ seed: 40 }), { isSimulation: true, skipFeeEnforcement: true }],
  },
  {
    method: 'node_isValidTx',
    name: 'low-fees-skip-enforcement',
    description: 'Fees below the minimum pass with skipFeeEnforcement.',
    params: [tx({ seed: 41, maxFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1n } }), { skipFeeEnforcement: true }],
  },
  {
    method: 'node_isValidTx',
    name: 'invalid-low-fees',
    description: 'Fees below the minimum: invalid, with the reason.',
    params: [tx({ seed: 41, maxFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1n } })],
  },
  {
    method: 'node_isValidTx',
    name: 'invalid-existing-nullifier',
    description: 'A nullifier already in the tree (block 1): invalid.',
    params: [tx({ seed: 42, nullifierValues: [BigInt(effect(1).nullifiers[0]!)] })],
  },
  {
    method: 'node_simulatePublicCalls',
    name: 'private-only',
    description: 'A tx without public calls.',
    params: [tx({ seed: 43 })],
  },
  {
    method: 'node_simulatePublicCalls',
    name: 'skip-fee-enforcement',
    description: 'The same with skipFeeEnforcement.',
    params: [tx({ seed: 43 }), true],
  },
  {
    method: 'node_sendTx',
    name: 'invalid-chain-id',
    description: 'A tx for another chain id: TX_INVALID.',
    params: [tx({ seed: 50 }, 1n)],
  },
  {
    method: 'node_sendTx',
    name: 'invalid-expired',
    description: 'A tx that expired before the next block: TX_INVALID.',
    params: [tx({ seed: 51, expiration: BigInt(chain.genesis.genesisTime) + 100n })],
  },
  {
    method: 'node_sendTx',
    name: 'invalid-low-fees',
    description: 'Max fees per gas below the minimum: TX_INVALID.',
    params: [tx({ seed: 52, maxFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1n } })],
  },
  {
    method: 'node_sendTx',
    name: 'invalid-existing-nullifier',
    description: 'A nullifier already in the tree: TX_INVALID.',
    params: [tx({ seed: 53, nullifierValues: [BigInt(effect(3).nullifiers[0]!)] })],
  },
  {
    method: 'node_sendTx',
    name: 'invalid-unfunded-payer',
    description: 'A fee payer without FeeJuice: TX_INVALID.',
    params: [tx({ seed: 54, payer: 0x1009n })],
  },
  {
    method: 'node_sendTx',
    name: 'rejected-nullifier-conflict',
    description: 'Shares a nullifier with a pending tx and does not bump its priority fee: NULLIFIER_CONFLICT.',
    params: [tx({ seed: 55, priority: 1n, nullifierValues: [pendingNullifier(0)] })],
  },
  {
    method: 'node_sendTx',
    name: 'rejected-insufficient-balance',
    description:
      "Covered by the payer's balance alone, not together with its pending tx: INSUFFICIENT_FEE_PAYER_BALANCE.",
    params: [
      tx({
        seed: 56,
        payer: PAYER_B,
        gasLimits: { daGas: 10_000, l2Gas: 1_000_000 },
        maxFeesPerGas: { feePerDaGas: 1_000_000n, feePerL2Gas: (10n ** 30n - 10n ** 17n - 10n ** 10n) / 1_000_000n },
      }),
    ],
  },
  {
    method: 'node_sendTx',
    name: 'rejected-low-priority-fee',
    description:
      'Pool capacity set to 3 (full): a tx below the lowest priority is LOW_PRIORITY_FEE; capacity restored to 1000.',
    before: [{ method: 'nodeAdmin_setConfig', params: [{ maxPendingTxCount: 3 }], surface: 'admin' }],
    params: [tx({ seed: 57, priority: 1n })],
    after: [
      { method: 'nodeAdmin_setConfig', params: [{ maxPendingTxCount: 1000 }], surface: 'admin' },
      { method: 'node_getPendingTxCount', params: [] },
    ],
  },
  {
    method: 'node_sendTx',
    name: 'resend-pending',
    description: 'Sending a pending tx again is accepted and changes nothing.',
    params: [chain.pendingTxs[1]],
    after: [{ method: 'node_getPendingTxCount', params: [] }],
  },
  {
    method: 'node_sendTx',
    name: 'invalid-params',
    description: 'A Tx that does not decode: -32602.',
    params: [{ txHash: UNKNOWN }],
    flags: ['deliberate-error', 'schema-only'],
  },
  {
    method: 'node_sendTx',
    name: 'accepted',
    description: 'A fresh valid tx joins the pool (4 pending, receipt pending).',
    stateChanging: true,
    params: [tx({ seed: 60, priority: 5n })],
    after: [
      { method: 'node_getPendingTxCount', params: [] },
      { method: 'node_getTxReceipt', params: [scriptedTx(anchor, { seed: 60, payer: PAYER_A, priority: 5n }).hash] },
    ],
  },
  {
    method: 'node_sendTx',
    name: 'replace-by-fee',
    description:
      "A tx that shares a pending tx's nullifier with a high enough priority fee replaces it; the old one is dropped.",
    stateChanging: true,
    params: [tx({ seed: 61, priority: 100n, nullifierValues: [pendingNullifier(2)] })],
    after: [
      { method: 'node_getTxReceipt', params: [pendingHashes[2]] },
      { method: 'node_getPendingTxCount', params: [] },
    ],
  },
];

const STATE: FillCase[] = [
  {
    method: 'node_getWorldStateSyncStatus',
    name: 'chain',
    description: 'World state at the tip, finalized block 4.',
    params: [],
  },
  {
    method: 'node_getPublicStorageAt',
    name: 'balance-latest',
    description: "A funded account's FeeJuice balance at the tip (fees paid).",
    params: ['latest', FEE_JUICE, balanceSlot(PAYER_A)],
  },
  {
    method: 'node_getPublicStorageAt',
    name: 'balance-genesis',
    description: 'The same balance at genesis.',
    params: [0, FEE_JUICE, balanceSlot(PAYER_A)],
  },
  {
    method: 'node_getPublicStorageAt',
    name: 'unwritten-slot',
    description: 'A slot never written reads 0.',
    params: [4, FEE_JUICE, UNKNOWN],
  },
  {
    method: 'node_getPublicStorageAt',
    name: 'not-yet-synced',
    description: 'A block above the tip: BLOCK_NOT_YET_SYNCED.',
    params: [BEYOND, FEE_JUICE, balanceSlot(PAYER_A)],
  },
  {
    method: 'node_findLeavesIndexes',
    name: 'note-hashes',
    description: 'Note hashes of blocks 1 and 8 and an unknown value at the tip.',
    params: ['latest', 1, [effect(1).noteHashes[0], UNKNOWN, effect(7).noteHashes[1]]],
  },
  {
    method: 'node_findLeavesIndexes',
    name: 'nullifiers-at-block-1',
    description: 'Nullifiers of blocks 1 and 3 as of block 1.',
    params: [1, 0, [effect(1).nullifiers[0], effect(3).nullifiers[0]]],
  },
  {
    method: 'node_findLeavesIndexes',
    name: 'archive',
    description: 'Block hashes in the archive tree.',
    params: ['latest', 4, [blockHash(2), blockHash(7)]],
  },
  {
    method: 'node_findLeavesIndexes',
    name: 'blocks-tree',
    description:
      'Tree 5 (BLOCKS_TREE) reads the block hashes: the same answer as the archive (4); upper-case hex reads as lower-case.',
    params: ['latest', 5, [blockHash(2), blockHash(7).toUpperCase().replace('0X', '0x')]],
  },
  {
    method: 'node_findLeavesIndexes',
    name: 'tree-id-6',
    description: 'Tree 6 names no tree (SPEC §2 allows the id): null for every value.',
    params: ['latest', 6, [blockHash(2), UNKNOWN]],
  },
  {
    method: 'node_findLeavesIndexes',
    name: 'not-yet-synced',
    description: 'A block above the tip: BLOCK_NOT_YET_SYNCED.',
    params: [BEYOND, 1, [UNKNOWN]],
  },
  ...(['Nullifier', 'NoteHash', 'Archive', 'PublicData'] as const).flatMap((t): FillCase[] => [
    {
      method: `node_get${t}SiblingPath`,
      name: 'leaf-0-latest',
      description: `Sibling path of leaf 0 at the tip.`,
      params: ['latest', '0'],
    },
    {
      method: `node_get${t}SiblingPath`,
      name: 'leaf-1-block-2',
      description: `Sibling path of leaf 1 as of block 2.`,
      params: [2, '1'],
    },
    {
      method: `node_get${t}SiblingPath`,
      name: 'leaf-out-of-range',
      description: 'A leaf index at or beyond the tree size: LEAF_INDEX_OUT_OF_RANGE.',
      params: ['latest', '100000'],
    },
    {
      method: `node_get${t}SiblingPath`,
      name: 'not-yet-synced',
      description: 'A block above the tip: BLOCK_NOT_YET_SYNCED.',
      params: [BEYOND, '0'],
    },
  ]),
  {
    method: 'node_getNullifierMembershipWitness',
    name: 'present',
    description: 'A nullifier of block 3.',
    params: ['latest', effect(3).nullifiers[1]],
  },
  {
    method: 'node_getNullifierMembershipWitness',
    name: 'absent',
    description: 'A nullifier not in the tree: null.',
    params: ['latest', UNKNOWN],
  },
  {
    method: 'node_getNullifierMembershipWitness',
    name: 'not-yet-synced',
    description: 'A block above the tip: BLOCK_NOT_YET_SYNCED.',
    params: [BEYOND, UNKNOWN],
  },
  {
    method: 'node_getLowNullifierMembershipWitness',
    name: 'absent',
    description: 'The low leaf of a nullifier not in the tree.',
    params: ['latest', UNKNOWN],
  },
  {
    method: 'node_getLowNullifierMembershipWitness',
    name: 'at-block-2',
    description: 'The same as of block 2.',
    params: [2, UNKNOWN],
  },
  {
    method: 'node_getLowNullifierMembershipWitness',
    name: 'not-yet-synced',
    description: 'A block above the tip: BLOCK_NOT_YET_SYNCED.',
    params: [BEYOND, UNKNOWN],
  },
  {
    method: 'node_getPublicDataWitness',
    name: 'balance',
    description: "The public data leaf of a funded account's balance.",
    params: ['latest', hex32(feeJuiceBalanceLeafSlot(PAYER_A))],
  },
  {
    method: 'node_getPublicDataWitness',
    name: 'absent',
    description: 'A leaf slot never written: the low leaf witness.',
    params: [3, UNKNOWN],
  },
  {
    method: 'node_getPublicDataWitness',
    name: 'not-yet-synced',
    description: 'A block above the tip: BLOCK_NOT_YET_SYNCED.',
    params: [BEYOND, UNKNOWN],
  },
  {
    method: 'node_getBlockHashMembershipWitness',
    name: 'block-3',
    description: "Block 3's hash in the archive at the tip.",
    params: ['latest', blockHash(3)],
  },
  {
    method: 'node_getBlockHashMembershipWitness',
    name: 'unknown',
    description: 'An unknown block hash: null.',
    params: ['latest', UNKNOWN],
  },
  {
    method: 'node_getBlockHashMembershipWitness',
    name: 'not-yet-synced',
    description: 'A block above the tip: BLOCK_NOT_YET_SYNCED.',
    params: [BEYOND, blockHash(3)],
  },
  {
    method: 'node_getNoteHashMembershipWitness',
    name: 'present',
    description: 'A note hash of block 4.',
    params: ['latest', effect(4).noteHashes[0]],
  },
  {
    method: 'node_getNoteHashMembershipWitness',
    name: 'absent',
    description: 'A note hash not in the tree: null.',
    params: [5, UNKNOWN],
  },
  {
    method: 'node_getNoteHashMembershipWitness',
    name: 'not-yet-synced',
    description: 'A block above the tip: BLOCK_NOT_YET_SYNCED.',
    params: [BEYOND, UNKNOWN],
  },
  {
    method: 'node_getL1ToL2MessageMembershipWitness',
    name: 'present',
    description: 'The L1→L2 message inserted by block 3.',
    params: ['latest', MESSAGE],
  },
  {
    method: 'node_getL1ToL2MessageMembershipWitness',
    name: 'before-insertion',
    description: 'As of block 2 the message is not in the tree: null.',
    params: [2, MESSAGE],
  },
  {
    method: 'node_getL1ToL2MessageMembershipWitness',
    name: 'not-yet-synced',
    description: 'A block above the tip: BLOCK_NOT_YET_SYNCED.',
    params: [BEYOND, MESSAGE],
  },
  {
    method: 'node_getL1ToL2MessageBlock',
    name: 'present',
    description: 'The block that inserted the message.',
    params: [MESSAGE],
  },
  {
    method: 'node_getL1ToL2MessageBlock',
    name: 'unknown',
    description: 'An unknown message: null.',
    params: [UNKNOWN],
  },
  {
    method: 'node_getL1ToL2MessageCheckpoint',
    name: 'present',
    description: 'The checkpoint that inserted the message.',
    params: [MESSAGE],
  },
  {
    method: 'node_getL1ToL2MessageCheckpoint',
    name: 'unknown',
    description: 'An unknown message: null.',
    params: [UNKNOWN],
  },
  {
    method: 'node_isL1ToL2MessageSynced',
    name: 'present',
    description: 'The message is in the tree.',
    params: [MESSAGE],
  },
  {
    method: 'node_isL1ToL2MessageSynced',
    name: 'unknown',
    description: 'An unknown message is not.',
    params: [UNKNOWN],
  },
  { method: 'node_getL2ToL1Messages', name: 'block-1', description: 'L2→L1 messages of block 1, per tx.', params: [1] },
  { method: 'node_getL2ToL1Messages', name: 'latest', description: 'Block 8 has none.', params: ['latest'] },
  {
    method: 'node_getL2ToL1Messages',
    name: 'beyond-tip',
    description: 'A block above the tip: null.',
    params: [BEYOND],
  },
];

const LOGS: FillCase[] = [
  { method: 'node_getPrivateLogs', name: 'all', description: 'Every private log of the chain.', params: [1, 100] },
  { method: 'node_getPrivateLogs', name: 'block-4', description: 'The private logs of block 4.', params: [4, 1] },
  { method: 'node_getPrivateLogs', name: 'beyond-tip', description: 'Above the tip: empty.', params: [BEYOND, 10] },
  {
    method: 'node_getLogsByTags',
    name: 'tags',
    description: 'Tag A (three logs), tag B (two), an unknown tag (none).',
    params: [[tag(SCRIPT.tags.a), tag(SCRIPT.tags.b), UNKNOWN]],
  },
  {
    method: 'node_getLogsByTags',
    name: 'logs-per-tag-1',
    description: 'At most one log per tag.',
    params: [[tag(SCRIPT.tags.a), tag(SCRIPT.tags.b)], 1],
  },
  {
    method: 'node_getPrivateLogsByTags',
    name: 'tags',
    description: 'Private logs by tag, first page, at the tip.',
    params: [[tag(SCRIPT.tags.a), tag(SCRIPT.tags.c)]],
  },
  {
    method: 'node_getPrivateLogsByTags',
    name: 'page-and-reference',
    description: 'Page 0 as of block 4 (by hash).',
    params: [[tag(SCRIPT.tags.a), tag(SCRIPT.tags.b)], 0, blockHash(4)],
  },
  {
    method: 'node_getPrivateLogsByTags',
    name: 'page-1',
    description: 'Page 1 is empty.',
    params: [[tag(SCRIPT.tags.a)], 1],
  },
  {
    method: 'node_getPrivateLogsByTags',
    name: 'unknown-reference',
    description: 'An unknown reference block hash: BLOCK_NOT_YET_SYNCED.',
    params: [[tag(SCRIPT.tags.a)], 0, UNKNOWN],
  },
  {
    method: 'node_getPublicLogsByTagsFromContract',
    name: 'none',
    description: 'The chain has no public logs: empty per tag.',
    params: [FEE_JUICE, [tag(SCRIPT.tags.a)]],
  },
  {
    method: 'node_getPublicLogsByTagsFromContract',
    name: 'page-and-reference',
    description: 'With page and reference block.',
    params: [FEE_JUICE, [tag(SCRIPT.tags.a)], 0, blockHash(6)],
  },
  {
    method: 'node_getPublicLogsByTagsFromContract',
    name: 'unknown-reference',
    description: 'An unknown reference block hash: BLOCK_NOT_YET_SYNCED.',
    params: [FEE_JUICE, [tag(SCRIPT.tags.a)], 0, UNKNOWN],
  },
  { method: 'node_getPublicLogs', name: 'all', description: 'No public logs on the chain.', params: [{}] },
  {
    method: 'node_getPublicLogs',
    name: 'range',
    description: 'A block range.',
    params: [{ fromBlock: 1, toBlock: 5 }],
  },
  { method: 'node_getContractClassLogs', name: 'all', description: 'The contract class log of block 2.', params: [{}] },
  {
    method: 'node_getContractClassLogs',
    name: 'by-tx',
    description: 'By the tx that emitted it.',
    params: [{ txHash: effect(2).txHash }],
  },
  {
    method: 'node_getContractClassLogs',
    name: 'by-contract',
    description: 'By the emitting contract.',
    params: [{ contractAddress: hex32(SCRIPT.classLogContract) }],
  },
  {
    method: 'node_getContractClassLogs',
    name: 'range-without',
    description: 'A block range without class logs.',
    params: [{ fromBlock: 3, toBlock: 8 }],
  },
];

const CONTRACTS_AND_INFO: FillCase[] = [
  {
    method: 'node_getContract',
    name: 'fee-juice',
    description: 'The FeeJuice protocol contract instance.',
    params: [FEE_JUICE],
  },
  { method: 'node_getContract', name: 'unknown', description: 'An unknown address: null.', params: [UNKNOWN] },
  { method: 'node_getContractClass', name: 'unknown', description: 'An unknown class id: null.', params: [UNKNOWN] },
  { method: 'node_isReady', name: 'ready', description: 'The node serving the chain is ready.', params: [] },
  // nodeVersion differs between implementations.
  {
    method: 'node_getNodeInfo',
    name: 'chain',
    description: 'Node info (versions, L1 addresses, protocol contracts).',
    params: [],
    flags: ['schema-only'],
  },
  { method: 'node_getL1ContractAddresses', name: 'chain', description: 'The dev L1 contract addresses.', params: [] },
  {
    method: 'node_getProtocolContractAddresses',
    name: 'chain',
    description: 'The protocol contract addresses.',
    params: [],
  },
  // Without p2p this is null; a node with p2p answers its own ENR.
  {
    method: 'node_getEncodedEnr',
    name: 'any',
    description: "The node's ENR or null.",
    params: [],
    flags: ['schema-only'],
  },
  { method: 'node_getValidatorsStats', name: 'chain', description: 'Validator stats of the dev chain.', params: [] },
  {
    method: 'node_getValidatorStats',
    name: 'unknown',
    description: 'A validator the node has not seen.',
    params: ['0x00000000000000000000000000000000000000aa'],
  },
  {
    method: 'node_getValidatorStats',
    name: 'slot-range',
    description: 'With a slot range.',
    params: ['0x00000000000000000000000000000000000000aa', '1', '66'],
  },
  {
    method: 'node_getValidatorStats',
    name: 'range-too-wide',
    description: 'A slot range wider than the window: SLOT_RANGE_TOO_WIDE.',
    params: ['0x00000000000000000000000000000000000000aa', '0', '100000'],
  },
  { method: 'node_getAllowedPublicSetup', name: 'chain', description: 'The public setup allow-list.', params: [] },
  {
    method: 'node_registerContractFunctionSignatures',
    name: 'one',
    description: 'Registering a signature answers null.',
    params: [['transfer(Field,Field)']],
    stateChanging: true,
  },
];

const ADMIN: FillCase[] = [
  // The values are the node's own settings, not the chain's: their shape is conformance.
  {
    method: 'nodeAdmin_getConfig',
    name: 'any',
    surface: 'admin',
    description: 'The run-time configuration.',
    params: [],
    flags: ['schema-only'],
  },
  {
    method: 'nodeAdmin_setConfig',
    name: 'pool-size',
    surface: 'admin',
    description: 'Setting maxPendingTxCount answers null; set back to 1000 in the same fixture.',
    params: [{ maxPendingTxCount: 500 }],
    after: [{ method: 'nodeAdmin_setConfig', params: [{ maxPendingTxCount: 1000 }] }],
  },
  {
    method: 'nodeAdmin_setConfig',
    name: 'empty',
    surface: 'admin',
    description: 'An empty update changes nothing.',
    params: [{}],
  },
  {
    method: 'nodeAdmin_setConfig',
    name: 'negative',
    surface: 'admin',
    description: 'A negative pool size: -32602.',
    params: [{ maxPendingTxCount: -1 }],
    flags: ['deliberate-error', 'schema-only'],
  },
  {
    method: 'nodeAdmin_setConfig',
    name: 'unknown-key',
    surface: 'admin',
    description: 'An unknown key is ignored (and logged), as Aztec 4.1.2 does: null.',
    params: [{ noSuchSetting: 1 }],
  },
  {
    method: 'nodeAdmin_pauseSync',
    name: 'pause-resume',
    surface: 'admin',
    description: 'Pause answers null; resumed in the same fixture.',
    params: [],
    after: [{ method: 'nodeAdmin_resumeSync', params: [] }],
  },
  {
    method: 'nodeAdmin_resumeSync',
    name: 'not-paused',
    surface: 'admin',
    description: 'Resuming a running node answers null.',
    params: [],
  },
  {
    method: 'nodeAdmin_rollbackTo',
    name: 'above-tip',
    surface: 'admin',
    description: 'A target above the tip: ROLLBACK_REFUSED.',
    params: [BEYOND],
  },
  {
    method: 'nodeAdmin_rollbackTo',
    name: 'below-finalized',
    surface: 'admin',
    description: 'A target below the finalized block without force: ROLLBACK_REFUSED.',
    params: [2],
  },
  {
    method: 'nodeAdmin_rollbackTo',
    name: 'below-finalized-force-false',
    surface: 'admin',
    description: 'The same with force false.',
    params: [2, false],
  },
  {
    method: 'nodeAdmin_rollbackTo',
    name: 'to-tip',
    surface: 'admin',
    description: 'Rolling back to the tip itself answers null and changes nothing.',
    params: [TIP],
    stateChanging: true,
  },
  {
    method: 'nodeAdmin_rollbackTo',
    name: 'negative',
    surface: 'admin',
    description: 'A negative target: -32602.',
    params: [-1],
    flags: ['deliberate-error', 'schema-only'],
  },
  {
    method: 'nodeAdmin_getSlashOffenses',
    name: 'all',
    surface: 'admin',
    description: 'Every pending offense.',
    params: ['all'],
  },
  {
    method: 'nodeAdmin_getSlashOffenses',
    name: 'current',
    surface: 'admin',
    description: 'Offenses of the current round.',
    params: ['current'],
  },
  {
    method: 'nodeAdmin_getSlashOffenses',
    name: 'round-0',
    surface: 'admin',
    description: 'Offenses of round 0.',
    params: ['0'],
  },
  {
    method: 'nodeAdmin_getSlashOffenses',
    name: 'bad-round',
    surface: 'admin',
    description: 'A round that is not a number, current or all: -32602.',
    params: ['next'],
    flags: ['deliberate-error', 'schema-only'],
  },
  { method: 'nodeAdmin_getSlashPayloads', name: 'chain', surface: 'admin', description: 'Slash payloads.', params: [] },
  {
    method: 'nodeAdmin_startSnapshotUpload',
    name: 'remote-scheme',
    surface: 'admin',
    description: 'A remote location: -32602.',
    params: ['s3://bucket/snapshot'],
    flags: ['deliberate-error', 'schema-only'],
  },
  {
    method: 'nodeAdmin_startSnapshotUpload',
    name: 'relative-path',
    surface: 'admin',
    description: 'A relative path: -32602.',
    params: ['snapshots/latest'],
    flags: ['deliberate-error', 'schema-only'],
  },
  {
    method: 'nodeAdmin_reloadKeystore',
    name: 'no-keystore',
    surface: 'admin',
    description: 'A node started without a keystore directory: KEYSTORE_RELOAD_REJECTED.',
    params: [],
  },
];

/** Every scripted case, in fixture order. */
export const FILL_CASES: readonly FillCase[] = [
  ...NODE_INFO,
  ...LIMITS,
  ...BLOCKS,
  ...TXS,
  ...STATE,
  ...LOGS,
  ...CONTRACTS_AND_INFO,
  ...ADMIN,
];

function outside(method: string, cases: [string, string, unknown[]][]): FillCase[] {
  return cases.map(([name, description, params]) => ({
    method,
    name,
    description,
    params,
    flags: ['deliberate-error', 'schema-only'],
  }));
}
