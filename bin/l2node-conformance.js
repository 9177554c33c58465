#!/usr/bin/env node
/**
 * Command-line entry of the conformance runner (docs/CONFORMANCE.md). Plain JavaScript so that any
 * Node.js can run the version check before the TypeScript runner is loaded through type stripping.
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
    `l2node-conformance needs Node.js >= ${REQUIRED.join('.')} (it runs TypeScript through type stripping), ` +
      `but this is Node.js v${process.versions.node} (${process.execPath}). ` +
      'Run it through npm (npm run conformance -- …), which uses the Node.js from node_modules.\n',
  );
  process.exit(1);
}

const { runCli } = await import('../src/conformance/cli.ts');
process.exitCode = await runCli(process.argv.slice(2), process.env);
