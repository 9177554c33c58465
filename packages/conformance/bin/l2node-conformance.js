#!/usr/bin/env node
/**
 * Command-line entry of the installed conformance package (@l2node/conformance; the repository's
 * own entry is bin/l2node-conformance.js). The runner is compiled JavaScript and needs Node.js >= 20.
 * @module
 */
const [major] = process.versions.node.split('.').map(Number);
if (major < 20) {
  process.stderr.write(`l2node-conformance needs Node.js >= 20, but this is Node.js v${process.versions.node} (${process.execPath}).\n`);
  process.exit(1);
}
const { runCli } = await import('../src/conformance/cli.js');
process.exitCode = await runCli(process.argv.slice(2), process.env);
