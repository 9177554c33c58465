/** The example contracts: token with public balances, and counter. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assembleToken, TokenStorage } from '../../../src/impl/contracts/examples/token.ts';
import { assembleCounter } from '../../../src/impl/contracts/examples/counter.ts';
import { deriveStorageSlotInMap } from '../../../src/impl/contracts/siloing.ts';
import { World } from '../execution/vm-harness.ts';

const TOKEN = 0x100n;
const ADMIN = 0xa0n;
const ALICE = 0xa1n;
const BOB = 0xb0n;
const MINT = 'mint_to_public((Field),u128)';
const TRANSFER = 'transfer_in_public((Field),(Field),u128,Field)';
const BALANCE = 'balance_of_public((Field))';

async function tokenWorld(): Promise<World> {
  const w = new World();
  const t = assembleToken();
  w.source.deploy(TOKEN, t.bytecode);
  w.signatures.registerFunctionSignatures(t.signatures);
  const r = await w.call(TOKEN, 'constructor((Field))', [ADMIN], { sender: ADMIN });
  assert.equal(r.reverted, false, r.revert?.message);
  return w;
}

const balance = async (w: World, who: bigint) => (await w.call(TOKEN, BALANCE, [who])).returnValues[0];

describe('token', () => {
  it('the constructor sets the admin once', async () => {
    const w = await tokenWorld();
    assert.deepEqual((await w.call(TOKEN, 'get_admin()')).returnValues, [ADMIN]);
    const again = await w.call(TOKEN, 'constructor((Field))', [ALICE], { sender: ALICE });
    assert.equal(again.revert!.message, 'Assertion failed: already initialized');
  });
  it('the admin mints to public balances; total supply follows', async () => {
    const w = await tokenWorld();
    assert.equal((await w.call(TOKEN, MINT, [ALICE, 1000n], { sender: ADMIN })).reverted, false);
    assert.equal((await w.call(TOKEN, MINT, [BOB, 5n], { sender: ADMIN })).reverted, false);
    assert.equal(await balance(w, ALICE), 1000n);
    assert.equal(await balance(w, BOB), 5n);
    assert.deepEqual((await w.call(TOKEN, 'total_supply()')).returnValues, [1005n]);
    assert.equal(await w.host.readStorage(TOKEN, deriveStorageSlotInMap(TokenStorage.BALANCES, ALICE)), 1000n);
  });
  it('anyone else minting reverts: caller is not the admin', async () => {
    const w = await tokenWorld();
    const r = await w.call(TOKEN, MINT, [ALICE, 1n], { sender: ALICE });
    assert.equal(r.revert!.message, 'Assertion failed: caller is not the admin');
    assert.equal(r.revert!.stack[0]!.functionName, 'mint_to_public');
    assert.equal(await balance(w, ALICE), 0n);
  });
  it('transfer moves the amount and logs [from, to, amount]', async () => {
    const w = await tokenWorld();
    await w.call(TOKEN, MINT, [ALICE, 1000n], { sender: ADMIN });
    const r = await w.call(TOKEN, TRANSFER, [ALICE, BOB, 300n, 0n], { sender: ALICE });
    assert.equal(r.reverted, false, r.revert?.message);
    assert.equal(await balance(w, ALICE), 700n);
    assert.equal(await balance(w, BOB), 300n);
    assert.deepEqual(w.host.effects().publicLogs, [{ contractAddress: TOKEN, fields: [ALICE, BOB, 300n] }]);
  });
  it('transfer of more than the balance reverts and changes nothing', async () => {
    const w = await tokenWorld();
    await w.call(TOKEN, MINT, [ALICE, 10n], { sender: ADMIN });
    const r = await w.call(TOKEN, TRANSFER, [ALICE, BOB, 11n, 0n], { sender: ALICE });
    assert.equal(r.revert!.message, 'Assertion failed: insufficient balance');
    assert.equal(await balance(w, ALICE), 10n);
    assert.equal(await balance(w, BOB), 0n);
  });
  it("transfer from someone else's balance reverts", async () => {
    const w = await tokenWorld();
    await w.call(TOKEN, MINT, [ALICE, 10n], { sender: ADMIN });
    const r = await w.call(TOKEN, TRANSFER, [ALICE, BOB, 1n, 0n], { sender: BOB });
    assert.match(r.revert!.message, /sender is not from/);
  });
  it('amounts of 2^128 or more revert', async () => {
    const w = await tokenWorld();
    const r = await w.call(TOKEN, MINT, [ALICE, 1n << 128n], { sender: ADMIN });
    assert.equal(r.revert!.message, 'Assertion failed: amount exceeds u128');
  });
  it('balance_of_public has the trees.json selector 0xff7949f2', () => {
    const t = assembleToken();
    assert.ok(t.functions.some((f) => f.signature === BALANCE && f.selector === 0xff7949f2));
  });
});

describe('counter', () => {
  it('increment returns the new count and get_counter reads it', async () => {
    const w = new World();
    w.source.deploy(0x200n, assembleCounter().bytecode);
    assert.deepEqual((await w.call(0x200n, 'get_counter()')).returnValues, [0n]);
    assert.deepEqual((await w.call(0x200n, 'increment()')).returnValues, [1n]);
    assert.deepEqual((await w.call(0x200n, 'increment()')).returnValues, [2n]);
    assert.deepEqual((await w.call(0x200n, 'get_counter()', [], { isStaticCall: true })).returnValues, [2n]);
  });
  it('increment in a static call reverts', async () => {
    const w = new World();
    w.source.deploy(0x200n, assembleCounter().bytecode);
    assert.match((await w.call(0x200n, 'increment()', [], { isStaticCall: true })).revert!.message, /Static call/);
  });
});
