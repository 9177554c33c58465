/**
 * Where the conformance chain file lives (built by build.ts, loaded with `l2node --import-chain`).
 * @module
 */
import { fileURLToPath } from 'node:url';

/** The committed chain file. */
export const CHAIN_FILE = fileURLToPath(new URL('../../../test/conformance/chain/chain.json', import.meta.url));
