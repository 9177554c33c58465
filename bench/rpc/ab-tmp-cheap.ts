// Temporary A/B (not committed): node with its runtime flags vs without, cheap call CPU per answer.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSecondsOf, NODE_BIN, ROOT, runLoadProcess, post, startBare } from './processes.ts';
import { recordingKey } from './bare-server.ts';
import { writeFileSync } from 'node:fs';
import { median } from '../lib/stats.ts';

async function start(env: Record<string, string>, extra: string[] = [], cwd = ROOT) {
  const dir = mkdtempSync(join(tmpdir(), 'ab-'));
  const proc = spawn(NODE_BIN, [...extra, 'bin/l2node.js', '--data-directory', dir, '--port', '0', '--admin-port', '0', '--no-admin-api-key'], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await new Promise<number>((res) => {
    let buf = '';
    proc.stderr!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /"public JSON-RPC listening".*?"port":(\d+)|"port":(\d+).*public JSON-RPC listening/.exec(buf);
      if (m) res(Number(m[1] ?? m[2]));
    });
  });
  proc.stderr!.resume();
  return { proc, port };
}
const variants: Record<string, { env: Record<string, string>; extra?: string[]; cwd?: string }> = {
  runtime: { env: {} },
  ...(process.argv[2] ? JSON.parse(process.argv[2]) : {}),
};
const nodes: Record<string, { proc: ReturnType<typeof spawn>; port: number }> = {};
for (const [k, v] of Object.entries(variants)) nodes[k] = await start(v.env, v.extra, v.cwd);
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'node_getBlockNumber', params: [] });
const batch = JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'node_getBlockNumber', params: [] })));
for (const n of Object.values(nodes)) await post(n.port, body);
{
  const s = await post(nodes.runtime!.port, body);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.headers)) if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k)) headers[k] = v as string;
  const rec = { headers, results: { [recordingKey('node_getBlockNumber', [])]: JSON.stringify((JSON.parse(s.body) as { result: unknown }).result) } };
  writeFileSync('/tmp/ab/rec.json', JSON.stringify(rec));
  const bare = await startBare('/tmp/ab/rec.json');
  nodes.bare = { proc: bare.proc, port: bare.port } as never;
}
const res: Record<string, { rps: number[]; us: number[] }> = {};
const rounds = Number(process.argv[3] ?? 4);
for (const b of [['single', body], ['batch', batch]] as const) {
  for (let r = 0; r < rounds; r++)
    for (const [k, n] of Object.entries(nodes)) {
      const c0 = cpuSecondsOf(n.proc.pid);
      const x = await runLoadProcess({ port: n.port, body: b[1], connections: 16, warmupMs: 700, durationMs: 2500 });
      const us = ((cpuSecondsOf(n.proc.pid) - c0) * 1e6) / x.answered;
      ((res[`${b[0]} ${k}`] ??= { rps: [], us: [] }).rps.push(x.rps), res[`${b[0]} ${k}`]!.us.push(us));
    }
}
for (const [k, v] of Object.entries(res))
  console.log(k.padEnd(20), 'rps', median(v.rps).toFixed(0).padStart(6), 'µs/answer', median(v.us).toFixed(1), v.us.map((x) => x.toFixed(1)).join(' '));
for (const n of Object.values(nodes)) n.proc.kill('SIGTERM');
