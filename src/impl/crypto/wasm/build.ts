/**
 * Builds `poseidon2.wasm` from source: generates the WAT text (poseidon2-wat.ts) and assembles it
 * with the wabt npm package. `npm run build:wasm` writes the file; `--check` exits 1 when the
 * committed binary differs from a fresh build (the unit tests run the same comparison).
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generatePoseidon2Wat } from './poseidon2-wat.ts';

/** Where the committed binary lives. */
export const WASM_PATH = fileURLToPath(new URL('./poseidon2.wasm', import.meta.url));

/** Assembles the generated text into a WebAssembly binary (deterministic). */
export async function buildPoseidon2Wasm(): Promise<Uint8Array> {
  const { default: initWabt } = await import('wabt');
  const wabt = await initWabt();
  const mod = wabt.parseWat('poseidon2.wat', generatePoseidon2Wat({ simd: true }));
  try {
    mod.validate();
    return mod.toBinary({ log: false, write_debug_names: false }).buffer;
  } finally {
    mod.destroy();
  }
}

if (import.meta.main) {
  const fresh = await buildPoseidon2Wasm();
  if (process.argv.includes('--check')) {
    const committed = readFileSync(WASM_PATH);
    if (!Buffer.from(fresh).equals(committed)) {
      console.error('poseidon2.wasm is stale: run `npm run build:wasm`');
      process.exit(1);
    }
    console.log('poseidon2.wasm is up to date');
  } else {
    writeFileSync(WASM_PATH, fresh);
    console.log(`wrote ${WASM_PATH} (${fresh.length} bytes)`);
  }
}
