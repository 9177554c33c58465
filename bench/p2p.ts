/**
 * Gossip between two node processes on loopback: one-way latency of single tx-topic messages
 * (median, p95) and the throughput of a burst, for 1 KB messages and for a real ~200 KB Tx
 * wire object. Numbers to watch, not assertions. Run: node bench/p2p.ts [burst] [size]
 * @module
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { P2PRunner } from '../test/integration/p2p-harness.ts';

const BURST = Number(process.argv[2] ?? 5000);
const SIZE = Number(process.argv[3] ?? 1000);
const LATENCY_SAMPLES = 200;
const VECTOR_DIR = fileURLToPath(new URL('../test/vectors/tx/', import.meta.url));

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

const a = await P2PRunner.start({ dataDirectory: '', port: 0 });
const b = await P2PRunner.start({ dataDirectory: '', port: 0, bootstrapPeers: [a.enr] });
const c = await P2PRunner.start({ dataDirectory: '', port: 0, bootstrapPeers: [a.enr], quiet: true });
try {
  await b.until((i) => i.txTopicPeers.includes(a.peerId));
  await c.until((i) => i.txTopicPeers.includes(a.peerId));
  await a.until((i) => i.txTopicPeers.length === 2);

  // Latency: one message at a time; the receiver stamps arrival, the payload carries the send time.
  const lat: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const sent = performance.timeOrigin + performance.now();
    await a.call('publishJson', { json: { txHash: `lat-${i}`, pad: 'x'.repeat(SIZE) } });
    const ev = await b.waitFor((e) => e.ev === 'tx' && e.txHash === `lat-${i}`);
    lat.push(Number(ev.t) - sent);
  }
  console.log(
    `latency, ${SIZE} B message (publish command to validator call in the peer): median ${pct(lat, 0.5).toFixed(2)} ms, p95 ${pct(lat, 0.95).toFixed(2)} ms`,
  );

  // Throughput: a burst of distinct messages from a; c counts validator calls.
  const before = (await c.info()).received;
  const t0 = performance.now();
  await a.call('publishBurst', { n: BURST, size: SIZE }, 120_000);
  const info = await c.until((i) => i.received - before >= BURST, 120_000);
  const secs = (performance.now() - t0) / 1000;
  console.log(
    `throughput: ${BURST} x ${SIZE} B in ${secs.toFixed(2)} s = ${Math.round((info.received - before) / secs)} msg/s, ${((BURST * SIZE) / secs / 1e6).toFixed(1)} MB/s`,
  );

  // A real Tx (wire JSON, ~200 KB) through publishTx, timed to the peer's validator.
  const file = readdirSync(VECTOR_DIR)
    .filter((f) => f !== 'index.json')
    .sort()[0]!;
  const sent = performance.timeOrigin + performance.now();
  await a.call('publishVector', { file: VECTOR_DIR + file });
  const ev = await b.waitFor((e) => e.ev === 'tx' && typeof e.txHash === 'string' && e.txHash.startsWith('0x'));
  console.log(
    `real Tx (${file}): read + decodeTx + encode in the sender, gossip, JSON.parse in the peer: ${(Number(ev.t) - sent).toFixed(1)} ms`,
  );
} finally {
  await Promise.all([a.stop(), b.stop(), c.stop()]);
}
