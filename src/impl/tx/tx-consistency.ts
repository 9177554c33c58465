/**
 * Checks that the side cars of a `Tx` agree with what `data` commits to: every
 * `publicFunctionCalldata` entry hashes to its `hash` and pairs with one public call request,
 * and every contract class log hashes to its committed hash (TX-FORMAT §1; the real node's
 * DataTxValidator makes the same checks). A mismatch is malformed input: `TxDecodeError`.
 * @module
 */
import { getContractClassLogHashes, getPublicCallRequests } from './tx-accessors.ts';
import { TxDecodeError } from './errors.ts';
import type { ContractClassLogFields, HashedValues, PrivateKernelTailCircuitPublicInputs } from './types.ts';

/**
 * Throws unless each calldata entry is self-consistent and the entries pair one-to-one, by hash, with
 * the call requests. `computed[i]` is computeCalldataHash of entry i's values (the caller hashes, in slices or not).
 */
export function assertCalldataMatchesRequests(
  data: PrivateKernelTailCircuitPublicInputs,
  calldata: readonly HashedValues[],
  computed: readonly bigint[],
  path = 'tx.publicFunctionCalldata',
): void {
  const { setup, appLogic, teardown } = getPublicCallRequests(data);
  const requests = teardown === undefined ? [...setup, ...appLogic] : [...setup, ...appLogic, teardown];
  if (calldata.length !== requests.length) {
    throw new TxDecodeError(path, `${calldata.length} entries for ${requests.length} public call requests`);
  }
  // Pairing is by hash, so order is free (the mock client sends app logic first); count each hash as a multiset.
  const wanted = new Map<bigint, number>();
  for (const r of requests) wanted.set(r.calldataHash, (wanted.get(r.calldataHash) ?? 0) + 1);
  calldata.forEach((entry, i) => {
    if (computed[i] !== entry.hash) {
      throw new TxDecodeError(`${path}[${i}].hash`, 'does not match the hash of its values');
    }
    const left = wanted.get(entry.hash) ?? 0;
    if (left === 0)
      throw new TxDecodeError(
        `${path}[${i}]`,
        'hash mismatch with publicCallRequest (no call request left with this calldataHash)',
      );
    wanted.set(entry.hash, left - 1);
  });
}

/**
 * Throws unless there is one log per non-empty contract class log hash, in order, each hashing to it.
 * `computed[i]` is computeContractClassLogHash of log i's fields.
 */
export function assertContractClassLogsMatch(
  data: PrivateKernelTailCircuitPublicInputs,
  logs: readonly ContractClassLogFields[],
  computed: readonly bigint[],
  path = 'tx.contractClassLogFields',
): void {
  const hashes = getContractClassLogHashes(data);
  if (logs.length !== hashes.length) {
    throw new TxDecodeError(path, `${logs.length} entries for ${hashes.length} non-empty contract class log hashes`);
  }
  logs.forEach((log, i) => {
    const committed = hashes[i].logHash;
    if (computed[i] !== committed.value) {
      throw new TxDecodeError(`${path}[${i}]`, 'hash mismatch with the contract class log hash in tx.data');
    }
    // The committed length counts the meaningful leading fields; a non-zero field past it is not covered.
    const meaningful = log.fields.findLastIndex((f) => f !== 0n) + 1;
    if (committed.length < meaningful) {
      throw new TxDecodeError(
        `${path}[${i}]`,
        `${meaningful} meaningful fields but the committed length is ${committed.length}`,
      );
    }
  });
}
