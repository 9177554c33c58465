import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import byTagsExample from '../../../../test/wire/examples/node_getPrivateLogsByTags.json' with { type: 'json' };
import publicLogsExample from '../../../../test/wire/examples/node_getPublicLogs.json' with { type: 'json' };
import cclExample from '../../../../test/wire/examples/node_getContractClassLogs.json' with { type: 'json' };
import { publicMethods } from '../../../../src/generated/public/methods.ts';
import type * as C from '../../../../src/impl/chain/types.ts';
import {
  fromWireLogFilter,
  toWireContractClassLogsPage,
  toWirePrivateLog,
  toWirePublicLogsPage,
  toWireTxScopedLog,
} from '../../../../src/impl/encoding/wire/logs.ts';

const big = (xs: readonly string[]) => xs.map((x) => BigInt(x));
const id = (x: {
  blockNumber: number;
  blockHash: string;
  txHash: string;
  txIndex: number;
  logIndex: number;
}): C.LogId => ({
  blockNumber: x.blockNumber,
  blockHash: BigInt(x.blockHash),
  txHash: BigInt(x.txHash),
  txIndex: x.txIndex,
  logIndex: x.logIndex,
});

describe('wire mappers: logs', () => {
  it('toWireTxScopedLog: the node_getPrivateLogsByTags example, timestamp as a decimal string', () => {
    const l = byTagsExample.response.result[0]![0]!;
    const engine: C.TxScopedL2Log = {
      txHash: BigInt(l.txHash),
      blockNumber: l.blockNumber,
      blockTimestamp: BigInt(l.blockTimestamp),
      logData: big(l.logData),
      noteHashes: big(l.noteHashes),
      firstNullifier: BigInt(l.firstNullifier),
    };
    const wire = toWireTxScopedLog(engine);
    assert.equal(JSON.stringify(wire), JSON.stringify(l));
    assert.equal(publicMethods.node_getPrivateLogsByTags!.validateResult([[wire]]), null);
  });

  it('toWirePublicLogsPage: the node_getPublicLogs example', () => {
    const r = publicLogsExample.response.result;
    const page: C.LogsPage<C.PublicLog> = {
      logs: r.logs.map((x) => ({
        id: id(x.id),
        log: { contractAddress: BigInt(x.log.contractAddress), fields: big(x.log.fields) },
      })),
      maxLogsHit: r.maxLogsHit,
    };
    const wire = toWirePublicLogsPage(page);
    assert.equal(JSON.stringify(wire), JSON.stringify(r));
    assert.equal(publicMethods.node_getPublicLogs!.validateResult(wire), null);
  });

  it('toWireContractClassLogsPage: the node_getContractClassLogs example ({fields: {fields}})', () => {
    const r = cclExample.response.result;
    const page: C.LogsPage<C.ContractClassLog> = {
      logs: r.logs.map((x) => ({
        id: id(x.id),
        log: {
          contractAddress: BigInt(x.log.contractAddress),
          fields: big(x.log.fields.fields),
          emittedLength: x.log.emittedLength,
        },
      })),
      maxLogsHit: true,
    };
    const wire = toWireContractClassLogsPage(page);
    assert.equal(JSON.stringify(wire), JSON.stringify({ ...r, maxLogsHit: true }));
    assert.equal(publicMethods.node_getContractClassLogs!.validateResult(wire), null);
  });

  it('toWirePrivateLog: 16 fields and the emitted length', () => {
    const wire = toWirePrivateLog({ fields: Array.from({ length: 16 }, (_, i) => BigInt(i)), emittedLength: 3 });
    assert.equal(wire.fields[15], '0x' + '0'.repeat(63) + 'f');
    assert.equal(publicMethods.node_getPrivateLogs!.validateResult([wire]), null);
  });

  it('fromWireLogFilter: every key parsed, absent keys stay absent', () => {
    const afterLog = publicLogsExample.response.result.logs[0]!.id;
    const f = fromWireLogFilter({
      txHash: afterLog.txHash,
      fromBlock: 2,
      toBlock: 9,
      afterLog,
      contractAddress: '0x' + '0'.repeat(62) + '77',
      tag: '0x' + '0'.repeat(61) + '7a9',
    });
    assert.deepEqual(f, {
      txHash: BigInt(afterLog.txHash),
      fromBlock: 2,
      toBlock: 9,
      afterLog: id(afterLog),
      contractAddress: 0x77n,
      tag: 0x7a9n,
    });
    assert.deepEqual(fromWireLogFilter({}), {});
    assert.deepEqual(fromWireLogFilter({ fromBlock: 0 }), { fromBlock: 0 });
  });
});
