#!/usr/bin/env node
/**
 * Command-line entry of the installed node (the `l2node` package; the repository's own entry is
 * bin/l2node.js). SPEC §9: v4 needs Node.js >= 24.12.0. The package depends on the npm `node`
 * package (Node.js 24.12), so when the Node.js running this file is older, it runs the node on that
 * one instead; without it, it says what is needed and exits.
 * @module
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const REQUIRED = [24, 12, 0];
const found = process.versions.node.split('.').map(Number);

function atLeast(have, need) {
  for (let i = 0; i < need.length; i++) {
    if (have[i] !== need[i]) return have[i] > need[i];
  }
  return true;
}

if (atLeast(found, REQUIRED)) {
  // The young-generation bound and malloc arenas a node runs with (src/config/node-runtime.js).
  const { ensureNodeRuntime } = await import('../src/config/node-runtime.js');
  ensureNodeRuntime();
  const { main } = await import('../src/main.js');
  await main(process.argv.slice(2), process.env);
} else {
  let bundled;
  try {
    bundled = createRequire(import.meta.url).resolve('node/bin/node');
  } catch {
    process.stderr.write(
      `l2node needs Node.js >= ${REQUIRED.join('.')} (SPEC §9: v4 raised the minimum from v22), ` +
        `but this is Node.js v${process.versions.node} (${process.execPath}) and the bundled Node.js (npm package \`node\`) is not installed.\n`,
    );
    process.exit(1);
  }
  const child = spawn(bundled, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code ?? 1)));
}
