/**
 * The `Tx` JSON object (TX-FORMAT §1) ⇄ the decoded `Tx`. Decoding checks the JSON shape, both
 * binary blobs, every field against the modulus and the side cars against `data`, and recomputes
 * the tx hash; the `txHash` key sent is ignored, as the real node ignores it.
 * @module
 */
import { FIELD_MODULUS, toFieldHex } from '../crypto/field.ts';
import { decodeBase64Strict, encodeBase64 } from './base64.ts';
import { decodeChonkProof, encodeChonkProof } from './chonk-proof.ts';
import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS } from './constants.ts';
import { TxDecodeError } from './errors.ts';
import { decodeKernelPublicInputs } from './kernel-decode.ts';
import { encodeKernelPublicInputs } from './kernel-encode.ts';
import { assertCalldataMatchesRequests, assertContractClassLogsMatch } from './tx-consistency.ts';
import { computeCalldataHash, computeContractClassLogHash, computeTxHash } from './tx-hash.ts';
import type { ContractClassLogFields, HashedValues, Tx, WireTx } from './types.ts';

const TX_KEYS = ['txHash', 'data', 'chonkProof', 'contractClassLogFields', 'publicFunctionCalldata'] as const;
const HEX32_RE = /^0x[0-9a-fA-F]{64}$/;
const FIELD_HEX_RE = /^0x[0-9a-fA-F]{1,64}$/;

/** A `Tx` read from JSON whose hashes are not yet computed or checked. */
export type TxParts = Omit<Tx, 'txHash'>;

/** The hashes decoding checks or recomputes: each calldata entry's, each class log's, and the tx hash. */
interface TxPartHashes {
  readonly calldata: readonly bigint[];
  readonly classLogs: readonly bigint[];
  readonly tx: bigint;
}

/**
 * Decodes a `Tx` JSON value (as parsed from a request) into a checked `Tx` with its recomputed hash.
 * @param path names the value in errors, e.g. `tx` or `params[0]`.
 * @throws TxDecodeError on anything malformed, naming where.
 */
export function decodeTx(json: unknown, path = 'tx'): Tx {
  const parts = readTxParts(json, path);
  return checkedTx(parts, path, {
    calldata: parts.publicFunctionCalldata.map((c) => computeCalldataHash(c.values)),
    classLogs: parts.contractClassLogFields.map((l) => computeContractClassLogHash(l.fields)),
    tx: computeTxHash(parts.data),
  });
}

/** Checks the side cars against `data` and the hashes computed; returns the decoded Tx. */
export function checkedTx(parts: TxParts, path: string, hashes: TxPartHashes): Tx {
  assertCalldataMatchesRequests(
    parts.data,
    parts.publicFunctionCalldata,
    hashes.calldata,
    `${path}.publicFunctionCalldata`,
  );
  assertContractClassLogsMatch(
    parts.data,
    parts.contractClassLogFields,
    hashes.classLogs,
    `${path}.contractClassLogFields`,
  );
  return { txHash: hashes.tx, ...parts };
}

/** Reads and shape-checks every member; hashes are left to the caller. */
export function readTxParts(json: unknown, path: string): TxParts {
  const obj = expectObject(json, path, TX_KEYS, ['txHash']);
  if (obj.txHash !== undefined && (typeof obj.txHash !== 'string' || !HEX32_RE.test(obj.txHash))) {
    throw new TxDecodeError(`${path}.txHash`, 'must be 0x followed by 64 hex digits');
  }
  const data = decodeKernelPublicInputs(
    decodeBase64Strict(expectString(obj.data, `${path}.data`), `${path}.data`),
    `${path}.data`,
  );
  const chonkProof = decodeChonkProof(
    decodeBase64Strict(expectString(obj.chonkProof, `${path}.chonkProof`), `${path}.chonkProof`),
    `${path}.chonkProof`,
  );
  const contractClassLogFields = expectArray(obj.contractClassLogFields, `${path}.contractClassLogFields`).map(
    (entry, i): ContractClassLogFields => {
      const p = `${path}.contractClassLogFields[${i}]`;
      const fields = expectArray(expectObject(entry, p, ['fields']).fields, `${p}.fields`);
      // The schema requires the padded form (TX-FORMAT §1).
      if (fields.length !== CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) {
        throw new TxDecodeError(
          `${p}.fields`,
          `must have ${CONTRACT_CLASS_LOG_SIZE_IN_FIELDS} entries, got ${fields.length}`,
        );
      }
      return { fields: fields.map((f, j) => parseField(f, `${p}.fields[${j}]`)) };
    },
  );
  const publicFunctionCalldata = expectArray(obj.publicFunctionCalldata, `${path}.publicFunctionCalldata`).map(
    (entry, i): HashedValues => {
      const p = `${path}.publicFunctionCalldata[${i}]`;
      const e = expectObject(entry, p, ['values', 'hash']);
      const values = expectArray(e.values, `${p}.values`).map((v, j) => parseField(v, `${p}.values[${j}]`));
      return { values, hash: parseField(e.hash, `${p}.hash`) };
    },
  );
  return { data, chonkProof, contractClassLogFields, publicFunctionCalldata };
}

/** Returns the `Tx` JSON object, keys in wire order, carrying the recomputed `txHash`. */
export function toWireTx(tx: Tx): WireTx {
  return {
    txHash: toFieldHex(tx.txHash),
    data: encodeBase64(encodeKernelPublicInputs(tx.data)),
    chonkProof: encodeBase64(encodeChonkProof(tx.chonkProof)),
    contractClassLogFields: tx.contractClassLogFields.map((l) => ({ fields: l.fields.map(toFieldHex) })),
    publicFunctionCalldata: tx.publicFunctionCalldata.map((c) => ({
      values: c.values.map(toFieldHex),
      hash: toFieldHex(c.hash),
    })),
  };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

function expectObject(
  v: unknown,
  path: string,
  keys: readonly string[],
  optional: readonly string[] = [],
): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new TxDecodeError(path, `must be an object, got ${describe(v)}`);
  const obj = v as Record<string, unknown>;
  for (const k of Object.keys(obj)) if (!keys.includes(k)) throw new TxDecodeError(`${path}.${k}`, 'unexpected key');
  for (const k of keys) if (!(k in obj) && !optional.includes(k)) throw new TxDecodeError(`${path}.${k}`, 'missing');
  return obj;
}

function expectString(v: unknown, path: string): string {
  if (typeof v !== 'string') throw new TxDecodeError(path, `must be a string, got ${describe(v)}`);
  return v;
}

function expectArray(v: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(v)) throw new TxDecodeError(path, `must be an array, got ${describe(v)}`);
  return v;
}

function parseField(v: unknown, path: string): bigint {
  if (typeof v !== 'string' || !FIELD_HEX_RE.test(v)) throw new TxDecodeError(path, 'must be a 0x-hex field element');
  const x = BigInt(v);
  if (x >= FIELD_MODULUS) throw new TxDecodeError(path, 'value >= field modulus');
  return x;
}
