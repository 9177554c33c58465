/**
 * Loads the shared reference vectors (test/vectors/trees.json) for the crypto and
 * world-state tests.
 * @module
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const path = fileURLToPath(new URL('../../../test/vectors/trees.json', import.meta.url));

/** The parsed trees.json (untyped: tests index it by the documented keys). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const treesVectors: any = JSON.parse(readFileSync(path, 'utf8'));
