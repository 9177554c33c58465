/**
 * Builds the Poseidon2 kernels from source: generates the WAT text (poseidon2-wat.ts) of each variant
 * and assembles it with the wabt npm package. `npm run build:wasm` writes the files; `--check` exits
 * 1 when a committed binary differs from a fresh build (the unit tests run the same comparison).
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KernelVariant } from '../poseidon2-kernel.ts';
import { KERNEL_FILES } from '../poseidon2-kernel.ts';
import { generatePoseidon2Wat } from './poseidon2-wat.ts';

/** Where each committed binary lives. */
export const WASM_PATHS: Record<KernelVariant, string> = {
  simd: fileURLToPath(new URL(`./${KERNEL_FILES.simd}`, import.meta.url)),
  scalar: fileURLToPath(new URL(`./${KERNEL_FILES.scalar}`, import.meta.url)),
};

/** Assembles the generated text of one variant into a WebAssembly binary (deterministic). */
export async function buildPoseidon2Wasm(variant: KernelVariant): Promise<Uint8Array> {
  const { default: initWabt } = await import('wabt');
  const wabt = await initWabt();
  const mod = wabt.parseWat('poseidon2.wat', generatePoseidon2Wat({ simd: variant === 'simd' }), {
    simd: variant === 'simd',
  });
  try {
    mod.validate();
    return mod.toBinary({ log: false, write_debug_names: false }).buffer;
  } finally {
    mod.destroy();
  }
}

if (import.meta.main) {
  const check = process.argv.includes('--check');
  for (const variant of ['simd', 'scalar'] as const) {
    const fresh = await buildPoseidon2Wasm(variant);
    const path = WASM_PATHS[variant];
    if (check) {
      if (!Buffer.from(fresh).equals(readFileSync(path))) {
        console.error(`${KERNEL_FILES[variant]} is stale: run \`npm run build:wasm\``);
        process.exit(1);
      }
      console.log(`${KERNEL_FILES[variant]} is up to date`);
    } else {
      writeFileSync(path, fresh);
      console.log(`wrote ${path} (${fresh.length} bytes)`);
    }
  }
}
