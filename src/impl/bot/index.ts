/**
 * Starts the tx bot of a node from its `--bot.*` options (docs/OPERATIONS.md, "The tx bot"): in
 * process over the node's public handlers, or against `--bot.url`.
 * @module
 */
import type { Config } from '../../config/options.ts';
import type { HandlerTable, Logger } from '../../server/types.ts';
import { Bot, type BotSettings } from './bot.ts';
import { inProcessBotNode, remoteBotNode } from './bot-node.ts';

export { Bot } from './bot.ts';
export type { BotSettings } from './bot.ts';

/** The bot options of the node's configuration. */
export type BotConfig = Pick<
  Config,
  | 'botTxsPerSecond'
  | 'botMinFeePadding'
  | 'botNoteHashesPerTx'
  | 'botPrivateLogsPerTx'
  | 'botFeePayer'
  | 'botUrl'
  | 'botReportIntervalSeconds'
>;

const ADDRESS = /^0x[0-9a-fA-F]{1,64}$/;

/** Resolves the settings; a bad `--bot.feePayer` or `--bot.url` throws naming the flag. */
export function botSettings(config: BotConfig, fundedAccounts: readonly { readonly address: bigint }[]): BotSettings {
  const feePayers =
    config.botFeePayer.length === 0
      ? fundedAccounts.map((a) => a.address)
      : config.botFeePayer.map((p) => {
          if (!ADDRESS.test(p))
            throw new Error(
              `invalid value ${JSON.stringify(p)} for --bot.feePayer: must be 0x followed by 1 to 64 hex digits`,
            );
          return BigInt(p);
        });
  if (feePayers.length === 0) throw new Error('the bot has no fee payer: give --bot.feePayer');
  const url = config.botUrl === '' ? undefined : config.botUrl;
  if (url !== undefined && !/^https?:\/\/\S+$/.test(url))
    throw new Error(`invalid value ${JSON.stringify(url)} for --bot.url: must be an http:// or https:// URL`);
  return {
    txsPerSecond: config.botTxsPerSecond,
    minFeePadding: config.botMinFeePadding,
    shape: { noteHashesPerTx: config.botNoteHashesPerTx, privateLogsPerTx: config.botPrivateLogsPerTx },
    feePayers,
    reportIntervalMs: config.botReportIntervalSeconds * 1000,
    target: url ?? 'in-process',
  };
}

/** What the node gives the bot. */
export interface StartBotOptions {
  readonly config: BotConfig;
  readonly logger: Logger;
  /** The node's public handlers (node.publicHandlers). */
  readonly handlers: HandlerTable;
  readonly fundedAccounts: readonly { readonly address: bigint }[];
}

/** Starts a bot; `stop` (for the node's closers) stops it and logs its summary. */
export function startBot(o: StartBotOptions): { readonly bot: Bot; stop(): Promise<void> } {
  const settings = botSettings(o.config, o.fundedAccounts);
  const node =
    settings.target === 'in-process' ? inProcessBotNode(o.handlers, o.logger) : remoteBotNode(settings.target);
  const bot = new Bot({ node, settings, logger: o.logger });
  bot.start();
  return { bot, stop: async () => void (await bot.stop()) };
}
