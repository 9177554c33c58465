/**
 * Test helpers for validators: deterministic private keys, keystore files and in-memory databases.
 * @module
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import knexFactory, { type Knex } from 'knex';
import { addressOfPrivateKey } from '../../../src/impl/validators/signer.ts';

/** A deterministic secp256k1 private key (hex) for label `i`. */
export function testKey(label: string | number): string {
  return `0x${bytesToHex(sha256(utf8ToBytes(`l2node-test-key-${label}`)))}`;
}

/** The address of `testKey(label)`. */
export function testAddress(label: string | number): string {
  const hex = testKey(label).slice(2);
  return addressOfPrivateKey(Uint8Array.from(hex.match(/../g)!.map((b) => parseInt(b, 16))));
}

/** A fee recipient (32-byte hex) for label `i`. */
export function testFeeRecipient(label: string | number): string {
  return `0x${bytesToHex(sha256(utf8ToBytes(`fee-${label}`)))}`;
}

/** A fresh temp directory. */
export function tempDir(prefix = 'l2node-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes a keystore JSON file and returns its path. */
export function writeKeystore(dir: string, name: string, validators: readonly Record<string, unknown>[]): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ schemaVersion: 1, validators }, null, 2));
  return path;
}

/** An in-memory SQLite knex (one connection, so the memory database is shared). */
export function memoryDb(): Knex {
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename: ':memory:' },
    useNullAsDefault: true,
    pool: { min: 1, max: 1 },
  });
}
