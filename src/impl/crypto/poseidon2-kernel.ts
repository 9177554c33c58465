/**
 * Loads the Poseidon2 WebAssembly kernel (built from `wasm/poseidon2-wat.ts` by `wasm/build.ts`) in
 * one of its two variants: `simd`, which computes two Montgomery products at once with WebAssembly
 * SIMD, and `scalar`, the same arithmetic one product at a time. Both take and give the same values
 * in the same memory layout. The SIMD variant is used wherever the engine validates it (every
 * Node.js this project supports, on x64 with SSE4.1 and on arm64); the scalar one keeps the node
 * running, slower, on an engine without WebAssembly SIMD.
 * @module
 */
import { readFileSync } from 'node:fs';

export type KernelVariant = 'simd' | 'scalar';

/** The committed binaries, in `wasm/`. */
export const KERNEL_FILES: Record<KernelVariant, string> = {
  simd: 'poseidon2.wasm',
  scalar: 'poseidon2-scalar.wasm',
};

/** The kernel's exports (values cross as four 64-bit little-endian words per field element). */
export interface Poseidon2Kernel {
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  permute(ptr: number): void;
  hash_pairs(inPtr: number, outPtr: number, count: number): void;
  hash(inPtr: number, n: number, outPtr: number): void;
  /** Start of the input/output area in the module's memory (after state and constants). */
  io_base: { readonly value: number };
}

/** The slice of the WebAssembly API used here (the project's `lib` setting has no WebAssembly types). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Each binary read once per thread: validating the SIMD one and instantiating it need the same bytes. */
const read = new Map<KernelVariant, Uint8Array>();
function bytesOf(variant: KernelVariant): Uint8Array {
  let bytes = read.get(variant);
  if (bytes === undefined)
    read.set(variant, (bytes = readFileSync(new URL(`./wasm/${KERNEL_FILES[variant]}`, import.meta.url))));
  return bytes;
}

let preferred: KernelVariant | undefined;

/** The variant this engine runs: `simd` when it validates the SIMD binary, else `scalar`. */
export function preferredKernelVariant(): KernelVariant {
  preferred ??= WA.validate(bytesOf('simd')) ? 'simd' : 'scalar';
  return preferred;
}

/** A new instance of the kernel (its own memory), by default of the preferred variant. */
export function loadPoseidon2Kernel(variant: KernelVariant = preferredKernelVariant()): Poseidon2Kernel {
  return new WA.Instance(new WA.Module(bytesOf(variant))).exports as unknown as Poseidon2Kernel;
}
