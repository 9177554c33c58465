/**
 * Guards an existing database against a changed chain: genesis time, slot duration, slots per
 * epoch, L1 chain id, rollup version and the initial ETH per fee asset are recorded on first
 * start, and a later start with other values is refused (the stored blocks' slots, timestamps and
 * fees would no longer line up; SPEC §9 sets the exchange rate once, at deployment).
 * @module
 */
import type { Knex } from 'knex';
import { getMetadata, setMetadata } from './store/database.ts';

/** The chain-defining settings. */
export interface ChainParams {
  readonly genesisTime: bigint;
  readonly slotDurationSeconds: number;
  readonly slotsPerEpoch: number;
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  readonly initialEthPerFeeAsset: bigint;
}

const FLAGS: Record<keyof ChainParams, string> = {
  genesisTime: '--genesis-time',
  slotDurationSeconds: '--slot-duration',
  slotsPerEpoch: '--slots-per-epoch',
  l1ChainId: '--l1-chain-id',
  rollupVersion: '--rollup-version',
  initialEthPerFeeAsset: '--initialEthPerFeeAsset',
};

/** Thrown when the configuration names another chain than the database holds. */
export class ChainParamsMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChainParamsMismatchError';
  }
}

/**
 * Records the params on first start and returns true (a new chain); returns false on a later
 * start with the same params; throws ChainParamsMismatchError when they changed since. A
 * `readOnly` caller (an RPC reader) only compares.
 */
export async function checkChainParams(
  db: Knex,
  params: ChainParams,
  options: { readonly readOnly?: boolean } = {},
): Promise<boolean> {
  const current = Object.fromEntries(Object.keys(FLAGS).map((k) => [k, String(params[k as keyof ChainParams])]));
  const stored = await getMetadata(db, 'chain_params');
  if (stored === undefined) {
    await setMetadata(db, 'chain_params', JSON.stringify(current));
    return true;
  }
  const was = JSON.parse(stored) as Record<string, string>;
  const changed = Object.keys(FLAGS).filter((k) => was[k] !== undefined && was[k] !== current[k]);
  if (changed.length > 0) {
    const list = changed.map((k) => `${FLAGS[k as keyof ChainParams]} ${current[k]} (database: ${was[k]})`).join(', ');
    throw new ChainParamsMismatchError(
      `the database holds another chain: ${list}; use the original values or another data directory`,
    );
  }
  // A database from before a param was guarded records today's value, which from now on is kept.
  if (options.readOnly !== true && Object.keys(FLAGS).some((k) => was[k] === undefined))
    await setMetadata(db, 'chain_params', JSON.stringify({ ...current, ...was }));
  return false;
}
