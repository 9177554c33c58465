/**
 * Child process of sync-p2p.test.ts: a proposer (dev engine on a ManualClock, in memory) with a
 * P2PService serving the block-range protocol from its chain and announcing each new block.
 * Commands on stdin, one JSON line each: {cmd:'build', n} builds n blocks with txs and announces
 * them; {cmd:'stop'}. Replies/events on stdout: {ev:'ready', addrs}, {ev:'built', tip, hash, roots}.
 * @module
 */
import { createInterface } from 'node:readline';
import { createEngine } from '../../src/impl/engine.ts';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { P2PService } from '../../src/impl/p2p/index.ts';
import { blockAnnouncement, blockRangeHandlerFor } from '../../src/impl/p2p/block-sync.ts';
import { InMemoryTxSource } from '../../src/impl/sequencer/tx-source.ts';
import { ALL_TREE_IDS } from '../../src/impl/world-state/constants.ts';
import { FEE_RECIPIENT, GENESIS, minableTx, PAYER, SLOT_MS } from './rpc-public-harness.ts';

const emit = (ev: Record<string, unknown>) =>
  process.stdout.write(JSON.stringify(ev, (_k, v) => (typeof v === 'bigint' ? '0x' + v.toString(16) : v)) + '\n');
const clock = new ManualClock(Number(GENESIS) * 1000);
const txSource = new InMemoryTxSource();
const engine = await createEngine({
  dataDirectory: '',
  clock,
  genesisTime: GENESIS,
  slotDurationSeconds: SLOT_MS / 1000,
  slotsPerEpoch: 2,
  l1BlockSeconds: 4,
  proofDelaySeconds: 4,
  finalityDepth: 1,
  buildEmptyBlocks: true,
  feeRecipient: FEE_RECIPIENT,
  fundedAccounts: [{ address: PAYER, amount: 10n ** 30n }],
  txSource,
});
const p2p = new P2PService({
  dataDirectory: '',
  port: 0,
  txValidator: async () => 'ignore',
  blockRangeHandler: blockRangeHandlerFor(engine.chain),
});
await p2p.start();
emit({ ev: 'ready', addrs: p2p.getListenAddresses(), peerId: p2p.getPeerId() });
let seed = 1;

createInterface({ input: process.stdin }).on(
  'line',
  (line) =>
    void (async () => {
      const c = JSON.parse(line) as { cmd: string; n?: number; announce?: boolean };
      if (c.cmd === 'stop') {
        await p2p.stop();
        await engine.stop();
        process.exit(0);
      }
      const from = (await engine.chain.getBlockNumber()) + 1;
      for (let i = 0; i < (c.n ?? 1); i++) {
        txSource.add(minableTx(seed++));
        txSource.add(minableTx(seed++));
        clock.advance(SLOT_MS);
        await engine.tick();
      }
      const tip = await engine.chain.getBlockNumber();
      if (c.announce === true)
        for (const b of await engine.chain.blocksFrom(from, tip - from + 1))
          await p2p.publishBlock(blockAnnouncement(b));
      const roots = await Promise.all(ALL_TREE_IDS.map((t) => engine.worldState.getTreeSnapshot(t, tip)));
      emit({ ev: 'built', tip, hash: (await engine.chain.findBlock(tip))!.hash, roots, peers: p2p.getPeers().length });
    })().catch((err) => {
      process.stderr.write(String(err?.stack ?? err) + '\n');
      process.exit(1);
    }),
);
