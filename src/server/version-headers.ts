/**
 * The `x-aztec-*` version headers Aztec 4.1.2 sends on every response (its versioning middleware),
 * so a 4.1 client created with `versions` detects that it talks to another network
 * (docs/COMPATIBILITY.md §12). Names and value forms as 4.1.2: `String(value)`, hex lower-case.
 * @module
 */

import { hexBytes } from '../impl/encoding/hex.ts';

/** This node's component versions; the optional ones are sent only when the node has a value. */
export interface ComponentVersions {
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  /** The L1 rollup contract's address. */
  readonly l1RollupAddress: bigint;
  readonly packageVersion: string;
  /** A tx's protocol contracts hash the node requires; absent while it accepts any. */
  readonly l2ProtocolContractsHash?: bigint;
  /** A tx's verification-key tree root the node requires; absent while it accepts any. */
  readonly l2CircuitsVkTreeRoot?: bigint;
}

/** The headers as `[name, value, …]` pairs for `writeHead`, in 4.1.2's spelling. */
export function versionHeaderPairs(v: ComponentVersions): string[] {
  const pairs = [
    'x-aztec-l1ChainId',
    String(v.l1ChainId),
    'x-aztec-rollupVersion',
    String(v.rollupVersion),
    'x-aztec-l1RollupAddress',
    hexBytes(v.l1RollupAddress, 20),
    'x-aztec-packageVersion',
    v.packageVersion,
  ];
  if (v.l2ProtocolContractsHash !== undefined)
    pairs.push('x-aztec-l2ProtocolContractsHash', hexBytes(v.l2ProtocolContractsHash, 32));
  if (v.l2CircuitsVkTreeRoot !== undefined)
    pairs.push('x-aztec-l2CircuitsVkTreeRoot', hexBytes(v.l2CircuitsVkTreeRoot, 32));
  return pairs;
}
