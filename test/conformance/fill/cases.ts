/**
 * The script of recorded conformance cases (`npm run conformance:fill`): method, params,
 * description, flags. Cases marked `waitingFor` need an engine part that is not built yet; they
 * are listed by the fill tool, not run. A case whose method still answers -32001 is not recorded.
 * @module
 */
import type { FillCase } from '../../../src/conformance/fill-case.ts';

const field = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;
const fields = (n: number) => Array.from({ length: n }, (_, i) => field(i + 1));
const signatures = (n: number) => Array.from({ length: n }, (_, i) => `transfer_${i}(Field,Field)`);
const HASH = `0x${'ab'.repeat(32)}`;

/** Node information that needs configuration only. */
const NODE_INFO: FillCase[] = [
  { method: 'node_getChainId', name: 'dev-chain', description: 'L1 chain id of the deterministic dev chain (31337).', params: [] },
  { method: 'node_getVersion', name: 'dev-chain', description: 'Rollup version of the deterministic dev chain (1).', params: [] },
  // The package version differs between implementations: only its shape is conformance.
  { method: 'node_getNodeVersion', name: 'any-version', description: 'The node software version string.', params: [], flags: ['schema-only'] },
];

/** SPEC §8 limits (and the documents' other bounds): just inside is served, just outside is -32602. */
const LIMITS: FillCase[] = [
  ...outside('node_getBlocks', [
    ['from-zero', 'from 0 is below the minimum of 1 (SPEC §8).', [0, 1]],
    ['limit-zero', 'limit 0 is below the minimum of 1 (SPEC §8).', [1, 0]],
    ['limit-101', 'limit 101 is above the maximum of 100 (SPEC §8).', [1, 101]],
  ]),
  { method: 'node_getBlocks', name: 'limit-100', description: 'limit 100, the maximum (SPEC §8).', params: [1, 100] },
  { method: 'node_getBlocks', name: 'from-1-limit-1', description: 'The smallest valid range (SPEC §8).', params: [1, 1] },
  ...outside('node_getPendingTxs', [
    ['limit-zero', 'limit 0 is below the minimum of 1 (SPEC §8).', [0]],
    ['limit-101', 'limit 101 is above the maximum of 100 (SPEC §8).', [101]],
  ]),
  { method: 'node_getPendingTxs', name: 'limit-100', description: 'limit 100, the maximum (SPEC §8).', params: [100] },
  { method: 'node_getPendingTxs', name: 'limit-default', description: 'limit absent: the default of 100 (SPEC §8).', params: [] },
  ...outside('node_findLeavesIndexes', [
    ['leaf-values-1001', '1001 leaf values is above the maximum of 1000 (SPEC §8).', ['latest', 1, fields(1001)]],
    ['tree-id-7', 'treeId 7 is above the range 0 to 6 (SPEC §8).', ['latest', 7, [field(1)]]],
    ['tree-id-negative', 'treeId -1 is below the range 0 to 6 (SPEC §8).', ['latest', -1, [field(1)]]],
  ]),
  { method: 'node_findLeavesIndexes', name: 'leaf-values-1000', description: '1000 leaf values, the maximum (SPEC §8).', params: ['latest', 1, fields(1000)] },
  ...outside('node_getPrivateLogs', [
    ['from-zero', 'from 0 is below the minimum of 1 (SPEC §8).', [0, 1]],
    ['limit-1001', 'limit 1001 blocks is above the maximum of 1000 (SPEC §8).', [1, 1001]],
  ]),
  { method: 'node_getPrivateLogs', name: 'limit-1000', description: 'limit 1000 blocks, the maximum (SPEC §8).', params: [1, 1000] },
  ...outside('node_getLogsByTags', [
    ['tags-1001', '1001 tags is above the maximum of 1000 (SPEC §8).', [fields(1001)]],
    ['logs-per-tag-11', 'logsPerTag 11 is above the maximum of 10 (SPEC §8).', [[field(1)], 11]],
    ['logs-per-tag-zero', 'logsPerTag 0 is below the minimum of 1 (SPEC §8).', [[field(1)], 0]],
  ]),
  { method: 'node_getLogsByTags', name: 'tags-1000', description: '1000 tags, the maximum (SPEC §8).', params: [fields(1000)] },
  { method: 'node_getLogsByTags', name: 'logs-per-tag-10', description: 'logsPerTag 10, the maximum (SPEC §8).', params: [[field(1)], 10] },
  ...outside('node_registerContractFunctionSignatures', [['signatures-101', '101 signatures is above the maximum of 100 (SPEC §8).', [signatures(101)]]]),
  { method: 'node_registerContractFunctionSignatures', name: 'signatures-100', description: '100 signatures, the maximum (SPEC §8).', params: [signatures(100)] },
  ...outside('node_getTxsByHash', [['hashes-51', '51 hashes is above the document maximum of 50.', [Array.from({ length: 51 }, () => HASH)]]]),
  ...outside('node_getCheckpoints', [['limit-51', 'limit 51 is above the document maximum of 50.', [1, 51]]]),
];

/** Cases that need the deterministic chain (fixed genesis, keys, scripted txs) or admin engine parts. */
const WAITING: FillCase[] = [
  { method: 'node_getBlockNumber', name: 'genesis', description: 'Block number of the fresh dev chain.', params: [], waitingFor: 'chain' },
  { method: 'node_getL2Tips', name: 'genesis', description: 'Tips of the fresh dev chain.', params: [], waitingFor: 'chain' },
  { method: 'node_getBlock', name: 'block-1', description: 'The first block of the scripted chain.', params: [1], waitingFor: 'chain' },
  { method: 'node_getBlock', name: 'beyond-tip', description: 'A block above the tip is null.', params: [1000000], waitingFor: 'chain' },
  { method: 'node_getBlockHeader', name: 'latest', description: 'The latest header.', params: ['latest'], waitingFor: 'chain' },
  { method: 'node_getTxReceipt', name: 'unknown-hash', description: 'An unknown tx hash has a DROPPED/unknown receipt.', params: [HASH], waitingFor: 'chain, mempool' },
  { method: 'node_getNodeInfo', name: 'dev-chain', description: 'Node info of the dev chain.', params: [], waitingFor: 'chain', flags: ['schema-only'] },
  { method: 'node_isReady', name: 'ready', description: 'The node is ready once started.', params: [], waitingFor: 'chain' },
  { method: 'node_getPendingTxCount', name: 'empty-pool', description: 'No pending txs on a fresh node.', params: [], waitingFor: 'mempool' },
  { method: 'node_sendTx', name: 'scripted-tx', description: 'A scripted tx of the deterministic chain is accepted.', params: [], waitingFor: 'chain, mempool, scripted txs' },
  { method: 'node_getWorldStateSyncStatus', name: 'genesis', description: 'World state at genesis.', params: [], waitingFor: 'world state' },
  { method: 'nodeAdmin_getConfig', name: 'defaults', surface: 'admin', description: 'The default run-time configuration.', params: [], waitingFor: 'admin config' },
  { method: 'nodeAdmin_pauseSync', name: 'pause', surface: 'admin', description: 'Pausing sync answers null.', params: [], waitingFor: 'admin sync control' },
];

/** Every scripted case, in fixture order. */
export const FILL_CASES: readonly FillCase[] = [...NODE_INFO, ...LIMITS, ...WAITING];

function outside(method: string, cases: [string, string, unknown[]][]): FillCase[] {
  return cases.map(([name, description, params]) => ({ method, name, description, params, flags: ['deliberate-error', 'schema-only'] }));
}
