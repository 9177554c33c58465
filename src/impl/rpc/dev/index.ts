/**
 * Handlers of openrpc.dev.json (`dev_*`, development only): sending an L1→L2 message through the
 * in-process L1's inbox and reading that L1. Served on the admin port behind the admin API key
 * (src/main.ts merges the table into the admin server's).
 * @module
 */
import type { DevHandlers } from '../../../generated/dev/handlers.ts';
import { FIELD_MODULUS } from '../../crypto/field.ts';
import { l1ToL2MessageHash } from '../../chain/protocol.ts';
import { DEV_DEPLOYER } from '../../l1/dev-addresses.ts';
import type { L1Chain } from '../../l1/l1-chain.ts';
import { InvalidParamsError, NotImplementedError, ReadOnlyNodeError } from '../errors.ts';
import { hex20, hex32 } from '../../encoding/hex.ts';

/** What the dev handlers read and write. */
export interface DevDeps {
  readonly l1: L1Chain;
  readonly rollupVersion: number;
  /** The node's role kind (src/impl/node-types.ts NodeRole): a reader is read-only, a follower has no inbox of its own. */
  readonly role: 'sequencer' | 'standalone' | 'follower' | 'reader';
  /** Inbox messages already inserted into L2 blocks. */
  consumedInboxCount(): Promise<number>;
  /** The checkpoint number of the latest block (0 at genesis). */
  latestBlockCheckpoint(): Promise<number>;
}

/** The L1 sender of dev messages: anvil's first account. */
export const DEV_L1_SENDER = DEV_DEPLOYER;

const PARAMS = ['recipient', 'content', 'secretHash'] as const;

/** Creates the dev handlers. */
export function createDevHandlers(d: DevDeps): DevHandlers {
  return {
    /** Handler for `dev_sendL1ToL2Message`. */
    async sendL1ToL2Message(recipient, content, secretHash) {
      const method = 'dev_sendL1ToL2Message';
      if (d.role === 'reader') throw new ReadOnlyNodeError();
      if (d.role === 'follower' || d.l1.sendL1ToL2MessageWith === undefined) throw new NotImplementedError(method);
      const [r, c, s] = [recipient, content, secretHash].map((v, i) => {
        const x = BigInt(v);
        if (x >= FIELD_MODULUS)
          throw new InvalidParamsError(i, PARAMS[i]!, 'must be a field element (below the BN254 scalar modulus)');
        return x;
      }) as [bigint, bigint, bigint];
      const expectedCheckpoint = (await d.latestBlockCheckpoint()) + 1;
      const chainId = BigInt(d.l1.chainId),
        rollupVersion = BigInt(d.rollupVersion);
      const sent = await d.l1.sendL1ToL2MessageWith((index) =>
        l1ToL2MessageHash({
          sender: DEV_L1_SENDER,
          chainId,
          recipient: r,
          rollupVersion,
          content: c,
          secretHash: s,
          index: BigInt(index),
        }),
      );
      return {
        messageHash: hex32(sent.message),
        index: String(sent.index),
        sender: hex20(DEV_L1_SENDER),
        l1BlockNumber: Number(sent.l1BlockNumber),
        expectedCheckpoint,
      };
    },

    /** Handler for `dev_getL1Info`. */
    async getL1Info() {
      if (d.l1.inboxMessageCount === undefined) throw new NotImplementedError('dev_getL1Info');
      const [sent, consumed] = await Promise.all([d.l1.inboxMessageCount(), d.consumedInboxCount()]);
      return {
        l1ChainId: d.l1.chainId,
        l1BlockNumber: Number(d.l1.currentBlock().number),
        inboxAddress: hex20(d.l1.addresses.inboxAddress),
        inboxMessageCount: sent,
        consumedInboxMessages: consumed,
        inboxPendingMessages: Math.max(0, sent - consumed),
      };
    },
  };
}
