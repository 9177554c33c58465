/**
 * Genesis agreement with a followed node, checked before following it over RPC: the same L1
 * chain id and rollup version, the same genesis block header (funded accounts and every genesis
 * tree root), and — once the source has a block — the same slot timing (a block's timestamp is
 * the start of its slot under --genesis-time and --slot-duration). Nothing here is taken over
 * from the source: the chain flags of both nodes must be the same, and a difference is named.
 * @module
 */
import { createNodeClient } from '../../generated/public/client.ts';
import type { ChainTime } from '../chain/time.ts';

/** What this node runs with. */
export interface OwnChain {
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  /** Our block 0 header as node_getBlockHeader(0) answers it (wire JSON). */
  readonly genesisHeader: unknown;
  readonly time: ChainTime;
}

/** Thrown when the followed node runs another chain. */
export class SourceMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceMismatchError';
  }
}

/**
 * Asks the node at `url` for its chain id, version, genesis header and first block header and
 * throws SourceMismatchError naming every difference; rejects with the network error when the
 * node cannot be reached within `timeoutMs`.
 */
export async function checkFollowedNode(url: string, ours: OwnChain, timeoutMs = 5000): Promise<void> {
  const client = createNodeClient(url, { batch: false });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${url}: no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const [chainId, version, genesis, first] = await Promise.race([
      Promise.all([client.getChainId(), client.getVersion(), client.getBlockHeader(0), client.getBlockHeader(1)]),
      timeout,
    ]);
    const diffs: string[] = [];
    if (chainId !== ours.l1ChainId) diffs.push(`--l1-chain-id ${ours.l1ChainId} (followed node: ${chainId})`);
    if (version !== ours.rollupVersion)
      diffs.push(`--rollup-version ${ours.rollupVersion} (followed node: ${version})`);
    if (diffs.length === 0 && JSON.stringify(genesis) !== JSON.stringify(ours.genesisHeader)) {
      const fields = differingPaths(ours.genesisHeader, genesis).join(', ');
      diffs.push(`the genesis block header differs (${fields}): funded accounts or genesis settings are not the same`);
    }
    if (first !== null && first !== undefined) {
      const g = first.globalVariables;
      const slot = Number(g.slotNumber);
      const expected = ours.time.slotStart(slot);
      if (BigInt(g.timestamp) !== expected) {
        diffs.push(
          `block 1 is in slot ${slot} at ${g.timestamp}, which here starts at ${expected}: --genesis-time or --slot-duration differ`,
        );
      }
    }
    if (diffs.length > 0)
      throw new SourceMismatchError(`the node at ${url} (--follow) runs another chain: ${diffs.join('; ')}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Leaf paths where two JSON values differ (at most 5). */
function differingPaths(a: unknown, b: unknown, path = ''): string[] {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys
      .flatMap((k) =>
        differingPaths(
          (a as Record<string, unknown>)[k],
          (b as Record<string, unknown>)[k],
          path === '' ? k : `${path}.${k}`,
        ),
      )
      .slice(0, 5);
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [path || '(value)'];
}
