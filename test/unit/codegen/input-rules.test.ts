/**
 * The documents' input rules as the generated param validators apply them (root `x-input-rules`,
 * codegen/ajv-schemas.ts): unknown members removed, hex lower-cased in place, and the shared domain
 * rule (finite safe integers, BN254 field elements) as -32602 rules naming the param; result
 * validators keep answers strict.
 * @module
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { adminMethods } from '../../../src/generated/admin/methods.ts';
import { publicMethods } from '../../../src/generated/public/methods.ts';
import { toJsonText, RawNumber } from '../../integration/fuzz-arbitraries.ts';
import { createDocumentAjv, schemaId } from '../../../codegen/ajv-schemas.ts';
import { buildModel, SURFACES } from '../../../codegen/model.ts';
import { checkModel } from '../../../codegen/check-document.ts';
import { ROOT } from './helpers.ts';

const MODULUS = '0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001';
const FIELD_RULE = `must be a BN254 field element (below ${MODULUS})`;
const HASH = `0x0${'ab'.repeat(31)}c`;
/** Params as the server has them: parsed from the JSON text a client sent. */
const parsed = (params: unknown[]) => JSON.parse(toJsonText(params)) as unknown[];

describe('generated validators: the input rules', () => {
  it('hex in any case is accepted and lower-cased in place, at the top and inside objects and arrays', () => {
    const params = [HASH.toUpperCase().replace('0X', '0x')];
    assert.equal(publicMethods.node_getTxReceipt!.validateParams(params), null);
    assert.deepEqual(params, [HASH]);
    const nested = parsed([{ txHash: HASH.toUpperCase().replace('0X', '0x'), fromBlock: 1 }]);
    assert.equal(publicMethods.node_getPublicLogs!.validateParams(nested), null);
    assert.deepEqual(nested, [{ txHash: HASH, fromBlock: 1 }]);
    const leaves = parsed(['latest', 1, [`0x${'AB'.repeat(31)}01`.replace(/^0xAB/, '0x0A')]]);
    assert.equal(publicMethods.node_findLeavesIndexes!.validateParams(leaves), null);
    assert.equal((leaves[2] as string[])[0], `0x0a${'ab'.repeat(30)}01`);
  });

  it('unknown members of request objects are removed before the handler; known ones are still checked', () => {
    const params = parsed([{ fromBlock: 1, sizeCache: 5, newerField: { a: 1 } }]);
    assert.equal(publicMethods.node_getPublicLogs!.validateParams(params), null);
    assert.deepEqual(params, [{ fromBlock: 1 }]);
    assert.equal(
      publicMethods.node_getPublicLogs!.validateParams(parsed([{ fromBlock: 'one', extra: 1 }])),
      'params[0] (filter): fromBlock must be integer',
    );
    const options = parsed([
      {
        txHash: HASH,
        data: 'AAAA',
        chonkProof: 'AAAA',
        contractClassLogFields: [],
        publicFunctionCalldata: [],
        sizeCache: 191234,
      },
      { isSimulation: true, skipProof: true },
    ]);
    assert.equal(publicMethods.node_isValidTx!.validateParams(options), null);
    assert.deepEqual(Object.keys(options[0] as object).sort(), [
      'chonkProof',
      'contractClassLogFields',
      'data',
      'publicFunctionCalldata',
      'txHash',
    ]);
    assert.deepEqual(options[1], { isSimulation: true });
  });

  it('nodeAdmin_setConfig keeps keys it does not know for the handler to ignore and log', () => {
    const params = parsed([{ maxPendingTxCount: 5, acvmBinaryPath: '/bin/acvm' }]);
    assert.equal(adminMethods.nodeAdmin_setConfig!.validateParams(params), null);
    assert.deepEqual(params, [{ maxPendingTxCount: 5, acvmBinaryPath: '/bin/acvm' }]);
  });

  it('extra positional params stay an error', () => {
    assert.match(publicMethods.node_getBlockNumber!.validateParams([1]) ?? '', /too many params|must be absent/);
  });

  it('the domain rule: a value at or above the BN254 modulus is -32602 naming the param, wherever it sits', () => {
    assert.equal(publicMethods.node_getTxReceipt!.validateParams([MODULUS]), `params[0] (txHash): ${FIELD_RULE}`);
    assert.equal(
      publicMethods.node_getTxReceipt!.validateParams([`0x${'F'.repeat(64)}`]),
      `params[0] (txHash): ${FIELD_RULE}`,
    );
    assert.equal(
      publicMethods.node_findLeavesIndexes!.validateParams(['latest', 1, [HASH, MODULUS]]),
      `params[2] (leafValues): [1] ${FIELD_RULE}`,
    );
    assert.equal(
      publicMethods.node_getPublicLogs!.validateParams([{ tag: MODULUS }]),
      `params[0] (filter): tag ${FIELD_RULE}`,
    );
    // Inside anyOf (BlockParameter: number, "latest" or a block hash) the field rule is what is reported.
    assert.equal(publicMethods.node_getBlock!.validateParams([MODULUS]), `params[0] (blockNumber): ${FIELD_RULE}`);
    const below = `0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000000`;
    assert.equal(publicMethods.node_getTxReceipt!.validateParams([below]), null);
  });

  it('the domain rule: numbers are finite safe integers (1e309, 1e20, 2^53 are refused; -0 reads as 0)', () => {
    for (const raw of ['1e309', '-1e309', '1e400']) {
      assert.match(
        publicMethods.node_getNullifierMembershipWitness!.validateParams(parsed([new RawNumber(raw), HASH])) ?? '',
        /^params\[0\] \(blockNumber\): must be /,
        raw,
      );
      assert.match(
        publicMethods.node_getBlocks!.validateParams(parsed([new RawNumber(raw), 1])) ?? '',
        /^params\[0\] \(from\): must be /,
        raw,
      );
    }
    assert.equal(
      publicMethods.node_getBlocks!.validateParams([1e20, 1]),
      'params[0] (from): must be <= 9007199254740991',
    );
    assert.equal(
      publicMethods.node_getBlock!.validateParams([2 ** 53]),
      'params[0] (blockNumber): must be <= 9007199254740991',
    );
    assert.equal(publicMethods.node_getBlock!.validateParams([Number.MAX_SAFE_INTEGER]), null);
    assert.equal(
      publicMethods.node_getBlocks!.validateParams(parsed([1, new RawNumber('1.5')])),
      'params[1] (limit): must be integer',
    );
    assert.equal(publicMethods.node_getBlock!.validateParams(parsed([new RawNumber('-0')])), null);
  });

  it('answers stay strict: upper-case hex and unknown members in a result are refused', () => {
    const header = { number: 1, hash: HASH.toUpperCase().replace('0X', '0x') };
    assert.match(
      publicMethods.node_getL2Tips!.validateResult({ proposed: header, checkpointed: {}, proven: {}, finalized: {} }) ??
        '',
      /must match pattern "\^0x\[0-9a-f\]\{64\}\$"/,
    );
    assert.equal(publicMethods.node_getBlockNumber!.validateResult(1), null);
  });

  it('the field rule comes from the root list x-input-rules.fieldElementSchemas, and only for requests', () => {
    const surface = SURFACES.find((x) => x.name === 'public')!;
    const doc = JSON.parse(readFileSync(join(ROOT, surface.file), 'utf8')) as Record<string, Record<string, unknown>>;
    const accepts = (rules: Record<string, unknown>, part: number, method: string, value: unknown): boolean =>
      createDocumentAjv(buildModel(surface, { ...doc, 'x-input-rules': rules }), false, 'request').getSchema(
        schemaId(method, part),
      )!(value) === true;
    const listed = doc['x-input-rules']!;
    assert.deepEqual(listed.fieldElementSchemas, ['AztecAddress', 'Field', 'Hash32']);
    assert.equal(accepts(listed, 0, 'node_getTxReceipt', MODULUS), false);
    assert.equal(
      accepts({ ...listed, fieldElementSchemas: ['Field'] }, 0, 'node_getTxReceipt', MODULUS),
      true,
      'Hash32 unlisted',
    );
    assert.equal(
      accepts({ ...listed, fieldElementSchemas: ['Field'] }, 1, 'node_getPublicStorageAt', MODULUS),
      true,
      'AztecAddress unlisted',
    );
    assert.equal(
      accepts({ ...listed, fieldElementSchemas: ['Field'] }, 2, 'node_getPublicStorageAt', MODULUS),
      false,
      'Field listed',
    );
    // Answers may carry L1 hashes of the same shape: the rule never reaches the response side.
    const response = createDocumentAjv(buildModel(surface, doc), false, 'response');
    for (const name of ['AztecAddress', 'Field', 'Hash32'])
      assert.equal(response.getSchema(name)!(`0x${'f'.repeat(64)}`), true, name);
    const model = buildModel(surface, {
      ...doc,
      'x-input-rules': { ...listed, fieldElementSchemas: ['NoSuchSchema'] },
    });
    assert.ok(checkModel(model, doc.components!).some((p) => p.includes('fieldElementSchemas names "NoSuchSchema"')));
  });
});
