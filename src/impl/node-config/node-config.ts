/**
 * The live admin configuration (nodeAdmin_getConfig / nodeAdmin_setConfig): defaults, then the
 * startup values, then whatever an operator changed at run time — which is persisted, so a
 * restart keeps it. An update is checked as a whole (the rules the schema cannot express: cross-
 * field limits, safe integers), stored, and then pushed to the parts through listeners.
 * @module
 */
import type { Knex } from 'knex';
import type { NodeAdminConfig, NodeAdminConfigUpdate } from '../../generated/admin/types.ts';
import { migrateAdminSchema } from './admin-schema.ts';
import { DEFAULT_NODE_ADMIN_CONFIG } from './defaults.ts';

/** An update that breaks a rule; nothing was changed. `rule` names the field and the limit. */
export class ConfigRuleBroken extends Error {
  readonly rule: string;
  constructor(rule: string) {
    super(rule);
    this.name = 'ConfigRuleBroken';
    this.rule = rule;
  }
}

/** A setting name. */
export type ConfigKey = keyof NodeAdminConfig;
/** Called after an update with the new configuration and the settings whose value changed. */
export type ConfigListener = (
  config: Readonly<NodeAdminConfig>,
  changed: ReadonlySet<ConfigKey>,
) => void | Promise<void>;

/** L2 gas of a default Aztec 4.1 transaction; a block limit below it could never hold one. */
export const MIN_MAX_L2_BLOCK_GAS = 6_540_000;

/** The running configuration. */
export class NodeConfig {
  readonly #db: Knex;
  #config: NodeAdminConfig;
  readonly #listeners: ConfigListener[] = [];
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(db: Knex, config: NodeAdminConfig) {
    this.#db = db;
    this.#config = config;
  }

  /** Loads defaults ← `startup` ← the persisted run-time changes. */
  static async open(db: Knex, startup: NodeAdminConfigUpdate = {}): Promise<NodeConfig> {
    await migrateAdminSchema(db);
    const persisted: Record<string, unknown> = {};
    for (const row of await db('node_admin_config').select('key', 'value_json')) {
      if (isConfigKey(row.key)) persisted[row.key] = JSON.parse(row.value_json);
    }
    return new NodeConfig(db, {
      ...structuredClone(DEFAULT_NODE_ADMIN_CONFIG),
      ...structuredClone(startup),
      ...persisted,
    } as NodeAdminConfig);
  }

  /** A copy of the current configuration. */
  get(): NodeAdminConfig {
    return structuredClone(this.#config);
  }

  /** Registers a listener, called after each applied update. */
  onChange(listener: ConfigListener): void {
    this.#listeners.push(listener);
  }

  /** Checks, persists and applies a partial update; throws ConfigRuleBroken and changes nothing on a broken rule. */
  update(partial: NodeAdminConfigUpdate): Promise<ReadonlySet<ConfigKey>> {
    // Updates run one at a time so that each is checked against the result of the previous one.
    const run = this.#queue.then(() => this.#apply(partial));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #apply(partial: NodeAdminConfigUpdate): Promise<ReadonlySet<ConfigKey>> {
    const next = { ...this.#config, ...structuredClone(partial) } as NodeAdminConfig;
    const broken = checkConfig(partial, next);
    if (broken !== undefined) throw new ConfigRuleBroken(broken);
    const changed = new Set(
      Object.keys(partial).filter(
        (k) => JSON.stringify(partial[k as ConfigKey]) !== JSON.stringify(this.#config[k as ConfigKey]),
      ) as ConfigKey[],
    );
    if (changed.size === 0) return changed;
    await this.#db.transaction(async (tx) => {
      for (const key of changed) {
        await tx('node_admin_config')
          .insert({ key, value_json: JSON.stringify(next[key]) })
          .onConflict('key')
          .merge();
      }
    });
    this.#config = next;
    const failures: unknown[] = [];
    for (const l of this.#listeners) {
      try {
        await l(structuredClone(next), changed);
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, 'a configuration listener failed');
    return changed;
  }
}

const OPTIONAL_KEYS: ReadonlySet<string> = new Set([
  'blockDurationMs',
  'coinbase',
  'feeRecipient',
  'slashOverridePayload',
]);

/** Whether `key` is a setting of NodeAdminConfig (nodeAdmin_setConfig ignores the others). */
export function isConfigKey(key: string): boolean {
  return Object.hasOwn(DEFAULT_NODE_ADMIN_CONFIG, key) || OPTIONAL_KEYS.has(key);
}

/** The first rule the update breaks, or undefined. `next` is the configuration it would give. */
export function checkConfig(partial: NodeAdminConfigUpdate, next: NodeAdminConfig): string | undefined {
  for (const key of Object.keys(partial)) {
    if (!isConfigKey(key)) return `must not have property '${key}'`;
    const v = partial[key as ConfigKey];
    if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v))
      return `${key} must be at most ${Number.MAX_SAFE_INTEGER}`;
  }
  if (next.minTxsPerBlock > next.maxTxsPerBlock)
    return `minTxsPerBlock (${next.minTxsPerBlock}) must be <= maxTxsPerBlock (${next.maxTxsPerBlock})`;
  if (next.maxTxsPerBlock > next.maxTxsPerCheckpoint)
    return `maxTxsPerBlock (${next.maxTxsPerBlock}) must be <= maxTxsPerCheckpoint (${next.maxTxsPerCheckpoint})`;
  if (next.maxL2BlockGas < MIN_MAX_L2_BLOCK_GAS)
    return `maxL2BlockGas must be >= ${MIN_MAX_L2_BLOCK_GAS} (the L2 gas of a default transaction)`;
  if (next.slashMinPenaltyPercentage > next.slashMaxPenaltyPercentage) {
    return `slashMinPenaltyPercentage (${next.slashMinPenaltyPercentage}) must be <= slashMaxPenaltyPercentage (${next.slashMaxPenaltyPercentage})`;
  }
  const never = new Set(next.slashValidatorsNever.map((a) => a.toLowerCase()));
  const both = next.slashValidatorsAlways.find((a) => never.has(a.toLowerCase()));
  if (both !== undefined) return `${both} must not be in both slashValidatorsAlways and slashValidatorsNever`;
  return undefined;
}
