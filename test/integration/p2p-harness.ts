/**
 * Starts p2p-node-runner.ts child processes and talks to them (commands in, events out), with
 * time bounds everywhere and a kill on cleanup, for the p2p integration tests and the bench.
 * @module
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const RUNNER = fileURLToPath(new URL('./p2p-node-runner.ts', import.meta.url));

/** One event line from a runner. */
export type RunnerEvent = { ev: string; [k: string]: unknown };

/** Info a runner reports about itself. */
export interface RunnerInfo {
  peerId: string;
  addrs: string[];
  enr: string | null;
  peers: string[];
  txTopicPeers: string[];
  banned: string[];
  ready: boolean;
  received: number;
}

/** A running child process with its P2PService. */
export class P2PRunner {
  readonly events: RunnerEvent[] = [];
  readonly child: ChildProcess;
  peerId = '';
  addrs: string[] = [];
  enr: string | null = null;
  stderr = '';
  #nextId = 0;
  #waiters: Array<() => void> = [];

  private constructor(config: Record<string, unknown>) {
    this.child = spawn(process.execPath, [RUNNER, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (d: Buffer) => {
      this.stderr += d.toString();
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      this.events.push(JSON.parse(line) as RunnerEvent);
      for (const w of this.#waiters.splice(0)) w();
    });
    this.child.on('exit', () => {
      for (const w of this.#waiters.splice(0)) w();
    });
  }

  /** Spawns a runner and waits for its 'ready' event. */
  static async start(config: Record<string, unknown>, timeoutMs = 15_000): Promise<P2PRunner> {
    const r = new P2PRunner(config);
    const ready = await r.waitFor((e) => e.ev === 'ready', timeoutMs);
    r.peerId = String(ready.peerId);
    r.addrs = ready.addrs as string[];
    r.enr = ready.enr as string | null;
    return r;
  }

  /** Resolves with the first event (past or future) matching; rejects after the timeout. */
  async waitFor(match: (e: RunnerEvent) => boolean, timeoutMs = 10_000): Promise<RunnerEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.events.find(match);
      if (hit !== undefined) return hit;
      if (this.child.exitCode !== null) throw new Error(`runner exited (${this.child.exitCode}): ${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for an event; stderr: ${this.stderr.slice(-2000)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Sends a command and resolves with its result (rejects with the runner's error). */
  async call(cmd: string, args: Record<string, unknown> = {}, timeoutMs = 15_000): Promise<unknown> {
    const id = this.#nextId++;
    this.child.stdin!.write(JSON.stringify({ id, cmd, ...args }) + '\n');
    const reply = await this.waitFor((e) => e.ev === 'reply' && e.id === id, timeoutMs);
    if (typeof reply.error === 'string') throw new Error(reply.error);
    return reply.result;
  }

  /** The runner's current info. */
  info(): Promise<RunnerInfo> {
    return this.call('info') as Promise<RunnerInfo>;
  }

  /** Polls info until `ok` holds; rejects after the timeout with the last info. */
  async until(ok: (i: RunnerInfo) => boolean, timeoutMs = 10_000): Promise<RunnerInfo> {
    const deadline = Date.now() + timeoutMs;
    let last = await this.info();
    while (!ok(last)) {
      if (Date.now() > deadline) throw new Error(`condition not reached; last info ${JSON.stringify(last)}`);
      await new Promise((r) => setTimeout(r, 100));
      last = await this.info();
    }
    return last;
  }

  /** Asks the runner to stop, then kills it if it has not exited within 5 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    try {
      this.child.stdin!.write(JSON.stringify({ id: -1, cmd: 'stop' }) + '\n');
    } catch {
      /* already closed */
    }
    const t = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(t);
  }
}
