#!/usr/bin/env node
/**
 * Command-line entry of l2node. Plain JavaScript so that any Node.js can run the runtime check
 * (SPEC §9: v4 needs Node.js >= 24.12.0) before the TypeScript sources are loaded.
 * @module
 */
const REQUIRED = [24, 12, 0];
const found = process.versions.node.split('.').map(Number);

function atLeast(have, need) {
  for (let i = 0; i < need.length; i++) {
    if (have[i] !== need[i]) return have[i] > need[i];
  }
  return true;
}

if (!atLeast(found, REQUIRED)) {
  process.stderr.write(
    `l2node needs Node.js >= ${REQUIRED.join('.')} (SPEC §9: v4 raised the minimum from v22), ` +
      `but this is Node.js v${process.versions.node} (${process.execPath}). ` +
      'Upgrade Node.js, or run it through npm (npm start) which uses the Node.js from node_modules.\n',
  );
  process.exit(1);
}

// The young-generation bound and malloc arenas a node runs with (src/config/node-runtime.ts): a
// process started without them is replaced by one that has them before the node loads.
const { ensureNodeRuntime } = await import('../src/config/node-runtime.ts');
ensureNodeRuntime();
const { main } = await import('../src/main.ts');
await main(process.argv.slice(2), process.env);
