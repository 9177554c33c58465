/**
 * Runs bin/l2node.js as a real process for process-level tests: flags, exit codes, the key
 * printed on stdout, signals.
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The entry script under test. */
export const BIN = fileURLToPath(new URL('../../bin/l2node.js', import.meta.url));

/** A clean environment, so variables of the machine running the tests do not leak in. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...extra };
}

/** Makes an empty working directory. */
export function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'l2node-test-'));
}

/** A node process started for a test. */
export interface NodeProcess {
  /** The process id (the node keeps it when it replaces itself to get its runtime flags). */
  readonly pid: number;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly publicUrl: string;
  readonly adminUrl: string;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the node on free ports and waits until both servers listen. */
export async function startNode(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; node?: string },
): Promise<NodeProcess> {
  const child = spawn(options.node ?? process.execPath, [BIN, '--port', '0', '--admin-port', '0', ...args], {
    cwd: options.cwd,
    env: options.env ?? cleanEnv(),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ports = await new Promise<{ public: number; admin: number }>((resolve, reject) => {
    const found: Record<string, number> = {};
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      // Whole lines only: a chunk can end inside a log line, whose JSON is then incomplete.
      for (const line of stderr.split('\n').slice(0, -1)) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { surface?: string; port?: number };
        if (entry.surface !== undefined && entry.port !== undefined) found[entry.surface] = entry.port;
      }
      if (found.public !== undefined && found.admin !== undefined)
        resolve({ public: found.public, admin: found.admin });
    });
    child.once('exit', (code) => reject(new Error(`node exited with ${code} before listening:\n${stderr}`)));
  });
  return {
    pid: child.pid!,
    stdout: () => stdout,
    stderr: () => stderr,
    publicUrl: `http://127.0.0.1:${ports.public}`,
    adminUrl: `http://127.0.0.1:${ports.admin}`,
    async stop(signal = 'SIGTERM') {
      child.kill(signal);
      return exited;
    },
  };
}

/** Runs the node to completion (for refused configurations) and collects its output. */
export function runNode(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; node?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(options.node ?? process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // A guard against a hang only: a refused start takes ~1 s alone but over 5 s on a loaded machine.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Extracts the 64-hex key from the banner printed on stdout. */
export function printedKey(stdout: string): string | undefined {
  return /x-api-key: ([0-9a-f]{64})/.exec(stdout)?.[1];
}
