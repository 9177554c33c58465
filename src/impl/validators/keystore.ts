/**
 * The validator keystore (docs/KEYSTORE.md): Aztec's keystore JSON, read from one file or from
 * every `*.json` file of a directory. Each validator has an `attester` secp256k1 private key
 * (its address is the Ethereum address of the public key), optional `publisher` keys (default:
 * the attester key), an optional `coinbase` (default: the attester address) and a `feeRecipient`.
 * Private keys live only in `#` fields: they are never logged, serialised or put in an error.
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { addressOfPrivateKey, parsePrivateKeyHex, signDigest, type EthAddressHex } from './signer.ts';

/** Why a keystore cannot be used (the reasons of KeystoreReloadRejectedErrorData). */
export type KeystoreProblem = 'NO_KEYSTORE_DIRECTORY' | 'VALIDATOR_DISABLED' | 'INVALID_KEYSTORE' | 'UNKNOWN_PUBLISHER';

/** A keystore that cannot be loaded; `detail` names the file and field, never a key. */
export class KeystoreError extends Error {
  readonly problem: KeystoreProblem;
  readonly detail: string | undefined;
  readonly validator: string | undefined;
  constructor(problem: KeystoreProblem, detail?: string, validator?: string) {
    super(detail === undefined ? problem : `${problem}: ${detail}`);
    this.name = 'KeystoreError';
    this.problem = problem;
    this.detail = detail;
    this.validator = validator;
  }
}

/** A private key that signs but cannot be read back. */
export class Signer {
  readonly address: EthAddressHex;
  readonly #key: Uint8Array;
  constructor(key: Uint8Array) {
    this.#key = key;
    this.address = addressOfPrivateKey(key);
  }
  /** 65-byte r‖s‖v signature over a 32-byte digest. */
  sign(digest: Uint8Array): Uint8Array {
    return signDigest(digest, this.#key);
  }
  /** Same key as `other` (compared without exposing either). */
  sameKeyAs(other: Signer): boolean {
    return other.address === this.address;
  }
  toJSON(): string {
    return `Signer(${this.address})`;
  }
}

/** One validator as loaded from the keystore. */
export interface KeystoreValidator {
  readonly attester: Signer;
  readonly publishers: readonly Signer[];
  readonly coinbase: EthAddressHex;
  readonly feeRecipient: string;
  /** File it came from (base name). */
  readonly file: string;
}

/** A loaded keystore. */
export interface Keystore {
  readonly validators: readonly KeystoreValidator[];
}

const ETH_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const AZTEC_ADDRESS = /^0x[0-9a-fA-F]{64}$/;

/** Loads a keystore file, or every `*.json` file of a directory (in name order). */
export function loadKeystore(path: string): Keystore {
  let files: string[];
  try {
    files = statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => join(path, f))
      : [path];
  } catch {
    throw new KeystoreError('INVALID_KEYSTORE', `cannot read ${basename(path)}`);
  }
  if (files.length === 0) throw new KeystoreError('INVALID_KEYSTORE', `no .json keystore file in ${basename(path)}`);
  const validators = files.flatMap((f) => parseKeystoreFile(basename(f), readText(f)));
  const seen = new Set<string>();
  for (const v of validators) {
    if (seen.has(v.attester.address))
      throw new KeystoreError(
        'INVALID_KEYSTORE',
        `${v.file}: attester ${v.attester.address} appears twice`,
        v.attester.address,
      );
    seen.add(v.attester.address);
  }
  return { validators };
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new KeystoreError('INVALID_KEYSTORE', `cannot read ${basename(file)}`);
  }
}

/** Parses one keystore file's text; `file` names it in errors. */
export function parseKeystoreFile(file: string, text: string): KeystoreValidator[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse quotes the text around the error, which may be a key: say only where it is.
    throw new KeystoreError('INVALID_KEYSTORE', `${file}: not valid JSON`);
  }
  if (!isRecord(json)) throw new KeystoreError('INVALID_KEYSTORE', `${file}: the top level must be an object`);
  if (json.schemaVersion !== undefined && json.schemaVersion !== 1) {
    throw new KeystoreError('INVALID_KEYSTORE', `${file}: schemaVersion must be 1`);
  }
  if (!Array.isArray(json.validators))
    throw new KeystoreError('INVALID_KEYSTORE', `${file}: validators must be an array`);
  return json.validators.flatMap((entry: unknown, i: number) =>
    parseValidator(`${file}: validators[${i}]`, file, entry),
  );
}

function parseValidator(where: string, file: string, entry: unknown): KeystoreValidator[] {
  if (!isRecord(entry)) throw new KeystoreError('INVALID_KEYSTORE', `${where} must be an object`);
  const attesters = parseKeys(`${where}.attester`, entry.attester, true);
  const publishers =
    entry.publisher === undefined ? undefined : parseKeys(`${where}.publisher`, entry.publisher, false);
  const coinbase = optionalString(
    `${where}.coinbase`,
    entry.coinbase,
    ETH_ADDRESS,
    'an Ethereum address (0x + 40 hex digits)',
  );
  const feeRecipient = optionalString(
    `${where}.feeRecipient`,
    entry.feeRecipient,
    AZTEC_ADDRESS,
    'an Aztec address (0x + 64 hex digits)',
  );
  if (feeRecipient === undefined) throw new KeystoreError('INVALID_KEYSTORE', `${where}.feeRecipient is required`);
  return attesters.map((attester) => ({
    attester,
    publishers: publishers ?? [attester],
    coinbase: (coinbase?.toLowerCase() ?? attester.address) as EthAddressHex,
    feeRecipient: feeRecipient.toLowerCase(),
    file,
  }));
}

/** A key field: a hex private key, `{eth: key}`, or (attester/publisher lists) an array of those. */
function parseKeys(where: string, value: unknown, required: boolean): Signer[] {
  if (value === undefined) {
    if (required) throw new KeystoreError('INVALID_KEYSTORE', `${where} is required`);
    return [];
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw new KeystoreError('INVALID_KEYSTORE', `${where} must not be empty`);
  return list.map((item, i) => {
    const at = Array.isArray(value) ? `${where}[${i}]` : where;
    const raw = isRecord(item) ? item.eth : item;
    if (typeof raw !== 'string') {
      throw new KeystoreError(
        'INVALID_KEYSTORE',
        `${at} must be a private key (0x + 64 hex digits) or {"eth": <private key>}; remote signers and encrypted JSON keystores are not supported`,
      );
    }
    const key = parsePrivateKeyHex(raw);
    if (key === undefined)
      throw new KeystoreError(
        'INVALID_KEYSTORE',
        `${at} is not a valid secp256k1 private key (0x + 64 hex digits, 0 < k < n)`,
      );
    return new Signer(key);
  });
}

function optionalString(where: string, value: unknown, pattern: RegExp, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !pattern.test(value))
    throw new KeystoreError('INVALID_KEYSTORE', `${where} must be ${what}`);
  return value;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
