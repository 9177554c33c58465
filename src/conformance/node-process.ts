/**
 * Starts this repository's node (bin/l2node.js) on free ports with a known admin key, for the
 * fill tool and the integration test. In-memory storage (`--data-directory ''`), so every start is
 * a fresh chain.
 * @module
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Endpoints } from './http.ts';

/** The admin key the started node accepts: fixed, so fixtures and logs are reproducible. */
export const TEST_API_KEY = 'c0ffee'.padEnd(64, '0');

/** A running node. */
export interface StartedNode extends Endpoints {
  readonly apiKey: string;
  /** Stops the node (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * The node to start: this repository's bin/l2node.js, or — in the installed @l2node/conformance
 * package, which has no node of its own — the `l2node` package installed beside it.
 */
export function nodeBin(): string {
  const own = fileURLToPath(new URL('../../bin/l2node.js', import.meta.url));
  if (existsSync(own)) return own;
  try {
    return fileURLToPath(new URL('./bin/l2node.js', import.meta.resolve('l2node/package.json')));
  } catch {
    throw new Error(
      '--local starts an l2node installed beside this package (npm install l2node); or run your node and pass --url and --admin-url',
    );
  }
}

/** Starts the node (`bin`, default nodeBin()) with `extraArgs`; resolves once both ports listen. */
export function startNode(extraArgs: readonly string[] = [], bin: string = nodeBin()): Promise<StartedNode> {
  const hash = createHash('sha256').update(TEST_API_KEY).digest('hex');
  const args = [
    bin,
    '--data-directory',
    '',
    '--port',
    '0',
    '--admin-port',
    '0',
    '--admin-api-key-hash',
    hash,
    '--log-level',
    'info',
    ...extraArgs,
  ];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let log = '';
    const tail: string[] = [];
    const ports: Record<string, number> = {};
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const lines = log.split('\n');
      log = lines.pop()!;
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 20) tail.shift();
        // The node logs one JSON line per listening surface: {"surface":"public","port":…}.
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { surface?: string; port?: number };
        if (entry.surface !== undefined && entry.port !== undefined) ports[entry.surface] = entry.port;
      }
      if (ports.public !== undefined && ports.admin !== undefined && ports.done === undefined) {
        ports.done = 1;
        resolve({
          publicUrl: `http://127.0.0.1:${ports.public}`,
          adminUrl: `http://127.0.0.1:${ports.admin}`,
          apiKey: TEST_API_KEY,
          stop: () => (child.kill('SIGTERM'), exited),
        });
      }
    });
    child.once(
      'exit',
      (code) =>
        ports.done === undefined &&
        reject(new Error(`l2node exited with ${code} before listening: ${[...tail, log].join('\n')}`)),
    );
  });
}
