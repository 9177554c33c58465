/**
 * A child process running one P2PService for the p2p integration tests and the bench. Config is
 * argv[2] (JSON). Commands arrive on stdin and events leave on stdout, one JSON object a line.
 * Validator modes: 'trivial' rejects wire objects with `invalid: true` and accepts the rest;
 * 'decode' runs the real `decodeTx` and rejects what does not decode.
 * @module
 */
import { createInterface } from 'node:readline';
import { readFileSync } from 'node:fs';
import { P2PService } from '../../src/impl/p2p/index.ts';
import type { GossipVerdict } from '../../src/impl/p2p/index.ts';
import { decodeTx } from '../../src/impl/tx/index.ts';

interface RunnerConfig {
  dataDirectory: string;
  port: number;
  bootstrapPeers?: string[];
  validator?: 'trivial' | 'decode';
  /** Blocks 0..tip are served by the range handler as the bytes of `block-<n>`. */
  tip?: number;
  /** Emit no per-tx event (bench: counts only). */
  quiet?: boolean;
}

const config = JSON.parse(process.argv[2] ?? '{}') as RunnerConfig;
const emit = (ev: Record<string, unknown>) => process.stdout.write(JSON.stringify(ev) + '\n');
const enc = new TextEncoder();
let received = 0;

const service = new P2PService({
  dataDirectory: config.dataDirectory,
  port: config.port,
  bootstrapPeers: config.bootstrapPeers ?? [],
  redialIntervalMs: 500,
  txValidator: async (wire, from): Promise<GossipVerdict> => {
    let verdict: GossipVerdict;
    if (config.validator === 'decode') {
      try {
        decodeTx(wire);
        verdict = 'accept';
      } catch {
        verdict = 'reject';
      }
    } else {
      verdict = (wire as { invalid?: boolean } | null)?.invalid === true ? 'reject' : 'accept';
    }
    received++;
    if (!config.quiet)
      emit({
        ev: 'tx',
        from,
        verdict,
        txHash: (wire as { txHash?: string } | null)?.txHash,
        t: performance.timeOrigin + performance.now(),
      });
    return verdict;
  },
  onBlock: async (block, from) => {
    emit({ ev: 'block', from, blockNumber: block.blockNumber, text: new TextDecoder().decode(block.block) });
    return 'accept';
  },
  blockRangeHandler: async (from, limit) => {
    const tip = config.tip ?? 0;
    const out: Uint8Array[] = [];
    for (let n = from; n <= tip && out.length < limit; n++) out.push(enc.encode(`block-${n}`));
    return out;
  },
});

type Command = { id: number; cmd: string; [k: string]: unknown };

async function run(c: Command): Promise<unknown> {
  switch (c.cmd) {
    case 'info':
      return {
        peerId: service.getPeerId(),
        addrs: service.getListenAddresses(),
        enr: service.getEncodedEnr(),
        peers: service.getPeers(),
        txTopicPeers: service.getTxTopicPeers(),
        banned: service.getBannedPeers(),
        ready: service.isReady(),
        received,
      };
    case 'publishJson':
      return service.publishEncodedTx(enc.encode(JSON.stringify(c.json)));
    case 'publishBurst': {
      // n distinct messages of about `size` bytes, as fast as gossipsub takes them.
      const pad = 'x'.repeat(Number(c.size ?? 1000));
      for (let i = 0; i < Number(c.n); i++) {
        await service.publishEncodedTx(
          enc.encode(JSON.stringify({ n: i, t: performance.timeOrigin + performance.now(), pad })),
        );
      }
      return true;
    }
    case 'publishVector':
      return service.publishTx(decodeTx(JSON.parse(readFileSync(String(c.file), 'utf8')).wire));
    case 'publishBlock':
      return service.publishBlock({
        blockNumber: Number(c.blockNumber),
        blockHash: new Uint8Array(32).fill(7),
        block: enc.encode(String(c.text)),
      });
    case 'requestBlocks': {
      const blocks = await service.requestBlocks(String(c.peer), Number(c.from), Number(c.limit));
      return blocks.map((b) => new TextDecoder().decode(b));
    }
    case 'stop':
      await service.stop();
      setImmediate(() => process.exit(0));
      return true;
    default:
      throw new Error(`unknown command ${c.cmd}`);
  }
}

await service.start();
emit({ ev: 'ready', peerId: service.getPeerId(), addrs: service.getListenAddresses(), enr: service.getEncodedEnr() });
createInterface({ input: process.stdin }).on('line', (line) => {
  const c = JSON.parse(line) as Command;
  run(c).then(
    (result) => emit({ ev: 'reply', id: c.id, result }),
    (err: Error) => emit({ ev: 'reply', id: c.id, error: err.message }),
  );
});
process.stdin.on('end', () => {
  void service.stop().then(() => process.exit(0));
});
