/**
 * The generated method table (small test document): descriptor shape and the params/result
 * messages that name the parameter and the rule.
 * @module
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeMini } from './helpers.ts';

type Descriptor = {
  name: string;
  handler: string;
  params: { name: string; required: boolean }[];
  errors: number[];
  deprecated: boolean;
  extension: boolean;
  validateParams(p: unknown[]): string | null;
  validateResult(r: unknown): string | null;
};

const HASH = `0x${'ab'.repeat(32)}`;

describe('generated methods.ts', () => {
  let dir: string;
  let methods: Record<string, Descriptor>;
  before(async () => {
    dir = await writeMini();
    methods = (await import(pathToFileURL(join(dir, 'src/generated/public/methods.ts')).href)).publicMethods;
  });
  after(() => rm(dir, { recursive: true, force: true }));
  const params = (method: string, values: unknown[]) => methods[method].validateParams(values);

  it('the table holds every method in document order with the contract fields', () => {
    assert.deepEqual(Object.keys(methods), [
      'node_getBlockNumber',
      'node_getBlock',
      'node_getBlocks',
      'node_getLogsByTags',
      'node_sendTx',
      'node_isL1ToL2MessageSynced',
      'node_getMembershipWitness',
    ]);
    const m = methods.node_getLogsByTags;
    assert.equal(m.name, 'node_getLogsByTags');
    assert.equal(m.handler, 'getLogsByTags');
    assert.deepEqual(m.params, [
      { name: 'tags', required: true },
      { name: 'logsPerTag', required: false },
    ]);
    assert.deepEqual(methods.node_getBlock.errors, [-32602, -32010]);
    assert.equal(methods.node_isL1ToL2MessageSynced.deprecated, true);
    assert.equal(methods.node_getMembershipWitness.extension, true);
    assert.equal(methods.node_getBlock.deprecated || methods.node_getBlock.extension, false);
    assert.ok(Object.isFrozen(methods) && Object.isFrozen(m));
  });

  it('valid params: null', () => {
    assert.equal(params('node_getBlocks', [1, 100]), null);
    assert.equal(params('node_getBlock', ['latest']), null);
    assert.equal(params('node_getBlockNumber', []), null);
  });

  it('maximum: params[1] (limit): must be <= 100', () => {
    assert.equal(params('node_getBlocks', [1, 101]), 'params[1] (limit): must be <= 100');
  });

  it('minimum: params[0] (from): must be >= 1', () => {
    assert.equal(params('node_getBlocks', [0, 1]), 'params[0] (from): must be >= 1');
  });

  it('anyOf: one combined message, params[0] (blockNumber): must be a non-negative integer or "latest"', () => {
    assert.equal(params('node_getBlock', [-1]), 'params[0] (blockNumber): must be a non-negative integer or "latest"');
    assert.equal(
      params('node_getBlock', ['earliest']),
      'params[0] (blockNumber): must be a non-negative integer or "latest"',
    );
  });

  it('maxItems: params[0] (tags): must not have more than 3 items', () => {
    assert.equal(
      params('node_getLogsByTags', [[HASH, HASH, HASH, HASH]]),
      'params[0] (tags): must not have more than 3 items',
    );
  });

  it('pattern: the path reaches into arrays, params[0] (tags): [1] …', () => {
    assert.equal(
      params('node_getLogsByTags', [[HASH, '0x12']]),
      'params[0] (tags): [1] must match pattern "^0x[0-9a-f]{64}$"',
    );
  });

  it('required property and enum inside an object param', () => {
    assert.equal(params('node_sendTx', [{ data: 'AA' }]), "params[0] (tx): must have required property 'kind'");
    assert.equal(
      params('node_sendTx', [{ data: 'AA', kind: 'secret' }]),
      'params[0] (tx): kind must be one of "private", "public"',
    );
  });

  it('missing required param: params[0] (blockNumber): is required', () => {
    assert.equal(params('node_getBlock', []), 'params[0] (blockNumber): is required');
    assert.equal(
      params('node_getBlock', [null]),
      'params[0] (blockNumber): must be a non-negative integer or "latest"',
    );
  });

  it('too many params are rejected', () => {
    assert.equal(params('node_getBlock', [1, 2]), 'too many params: expected at most 1, got 2');
    assert.equal(params('node_getBlockNumber', [0]), 'too many params: expected at most 0, got 1');
  });

  it('optional params may be omitted, null or undefined, and are checked when given', () => {
    assert.equal(params('node_getLogsByTags', [[HASH]]), null);
    assert.equal(params('node_getLogsByTags', [[HASH], null]), null);
    assert.equal(params('node_getMembershipWitness', ['latest', undefined, '7']), null);
    assert.equal(params('node_getLogsByTags', [[HASH], 0]), 'params[1] (logsPerTag): must be >= 1');
    assert.equal(
      params('node_getMembershipWitness', ['latest', null, 'x']),
      'params[2] (toSlot): must match pattern "^(0|[1-9][0-9]*)$"',
    );
  });

  it('validateResult: null where the schema allows it, void results, and the deeper error of a matching branch', () => {
    assert.equal(methods.node_getBlock.validateResult(null), null);
    assert.equal(methods.node_sendTx.validateResult(undefined), null);
    assert.equal(methods.node_getBlockNumber.validateResult(null), 'result: must be integer');
    assert.equal(
      methods.node_getBlock.validateResult({ number: 1, hash: '0x12', txCount: 0 }),
      'result: hash must match pattern "^0x[0-9a-f]{64}$"',
    );
    assert.equal(
      methods.node_getBlock.validateResult({ number: 1, hash: HASH, txCount: 0, extra: 1 }),
      "result: must not have property 'extra'",
    );
    assert.equal(methods.node_getBlock.validateResult('block'), 'result: must be an object or null');
  });
});
