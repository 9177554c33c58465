import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import nodeInfoExample from '../../../../test/wire/examples/node_getNodeInfo.json' with { type: 'json' };
import feesExample from '../../../../test/wire/examples/node_getCurrentMinFees.json' with { type: 'json' };
import allowedExample from '../../../../test/wire/examples/node_getAllowedPublicSetup.json' with { type: 'json' };
import { publicMethods } from '../../../../src/generated/public/methods.ts';
import type { L1ContractAddresses } from '../../../../src/impl/l1/l1-chain.ts';
import { createNodeStatusHandlers } from '../../../../src/impl/rpc/public/node-info.ts';
import {
  toWireAllowedElement,
  toWireL1ContractAddresses,
  toWireProtocolContractAddresses,
} from '../../../../src/impl/encoding/wire/node-info.ts';
import { toWireGasFees } from '../../../../src/impl/encoding/wire/headers.ts';

const info = nodeInfoExample.response.result;
const l1Addresses = Object.fromEntries(
  Object.entries(info.l1ContractAddresses).map(([k, v]) => [k, BigInt(v)]),
) as unknown as L1ContractAddresses;
const protocol = { classRegistry: 1n, feeJuice: 2n, instanceRegistry: 3n, multiCallEntrypoint: 4n };

describe('wire mappers: node info', () => {
  it('toWireL1ContractAddresses / toWireProtocolContractAddresses: the example values (keys as in the example)', () => {
    assert.deepEqual(toWireL1ContractAddresses(l1Addresses), info.l1ContractAddresses);
    assert.equal(
      JSON.stringify(toWireProtocolContractAddresses(protocol)),
      JSON.stringify(info.protocolContractAddresses),
    );
  });

  it('node_getNodeInfo: the example exactly (no enr) and with an ENR when P2P runs', async () => {
    const deps = {
      nodeVersion: info.nodeVersion,
      l1ChainId: info.l1ChainId,
      rollupVersion: info.rollupVersion,
      l1: { addresses: l1Addresses },
      protocolContractAddresses: protocol,
      realProofs: false,
      getCurrentMinFees: () => ({ feePerDaGas: 1000n, feePerL2Gas: 2000n }),
      isReady: () => true,
      getEncodedEnr: (): string | undefined => undefined,
    };
    const h = createNodeStatusHandlers(deps);
    const wire = await h.getNodeInfo();
    assert.deepEqual(wire, info);
    assert.equal(publicMethods.node_getNodeInfo!.validateResult(wire), null);
    assert.equal(await h.getEncodedEnr(), null);
    const enr =
      'enr:-IS4QHCYrYZbAKWCBRlAy5zzaDZXJBGkcnh4MHcBFZntXNFrdvJjX04jRzjzCBOonrkTfj499SZuOh8R33Ls8RRcy5wBgmlkgnY0gmlwhH8AAAGJc2VjcDI1NmsxoQPKY0yuDUmstAHYpMa2_oxVtw0RW_QAdpzBQA8yWM0xOIN1ZHCCdl8';
    const withEnr = createNodeStatusHandlers({ ...deps, getEncodedEnr: () => enr });
    assert.equal((await withEnr.getNodeInfo()).enr, enr);
    assert.equal(await withEnr.getEncodedEnr(), enr);
    assert.equal(publicMethods.node_getEncodedEnr!.validateResult(enr), null);
    assert.deepEqual(await h.getCurrentMinFees(), feesExample.response.result);
  });

  it('toWireGasFees: decimal strings', () => {
    assert.deepEqual(toWireGasFees({ feePerDaGas: 1000n, feePerL2Gas: 2000n }), feesExample.response.result);
  });

  it('toWireAllowedElement: by address and by class id, selector as 8 hex digits, unset flags omitted', () => {
    const engine = [
      { address: 3n, selector: 7, onlySelf: true },
      { classId: 9n, selector: 8 },
    ];
    const wire = engine.map(toWireAllowedElement);
    assert.equal(JSON.stringify(wire), JSON.stringify(allowedExample.response.result));
    assert.equal(publicMethods.node_getAllowedPublicSetup!.validateResult(wire), null);
    assert.deepEqual(
      toWireAllowedElement({ classId: 1n, selector: 0xffffffff, rejectNullMsgSender: false, calldataLength: 3 }),
      { classId: '0x' + '0'.repeat(63) + '1', selector: '0xffffffff', rejectNullMsgSender: false, calldataLength: 3 },
    );
  });
});
