/**
 * `npm run pack`: builds the three npm packages (docs/PACKAGES.md) and writes their tarballs into
 * dist/packages/:
 *   - `@l2node/client`: src/client/ (over the generated clients, types and error catalogues) and
 *     the tx builder, compiled to ESM + .d.ts; zero runtime dependencies.
 *   - `@l2node/conformance`: the runner (src/conformance/), the fixtures, the chain file and the two
 *     documents, compiled for Node >= 20; its one dependency is ajv (schema checks), no server code.
 *   - `l2node`: the node (src/ minus the client, the runner's fill tools and the wasm build), compiled;
 *     the root package's runtime dependencies; no tests, bench or docs sources.
 * Each package is staged under dist/packages/build/<dir>/ (sources copied, then `tsc` with
 * rewriteRelativeImportExtensions, output mirroring the repository: src/…/*.js next to bin/), checked
 * for imports it must not have, and packed with `npm pack`.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist', 'packages');
const BUILD = join(OUT, 'build');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
  dependencies: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};
const REPOSITORY_FILES = { license: root.license, version: root.version };

/** One package: what is staged, compiled and allowed to be imported. */
interface PackageSpec {
  readonly dir: string;
  readonly manifest: Record<string, unknown>;
  /** Entry files (repository paths); tsc compiles them and everything they import. */
  readonly entries: readonly string[];
  /** Repository paths copied into the package as they are (relative layout kept). */
  readonly assets: readonly string[];
  /** Files staged over the copied sources: repository path → contents, or a rewrite of the copied text. */
  readonly substitutions?: Readonly<Record<string, string | ((text: string) => string)>>;
  /** The bare imports the compiled JavaScript may make (besides relative ones). */
  readonly allowedImports: (specifier: string) => boolean;
  /** Extra compiler options. */
  readonly compilerOptions?: Record<string, unknown>;
}

/** A rewrite that replaces `from` once, failing the build when the source no longer has it. */
const replaceOnce =
  (from: string, to: string) =>
  (text: string): string => {
    if (!text.includes(from))
      throw new Error(`scripts/pack.ts: a client substitution expects \`${from}\`; update it to the current source`);
    return text.replace(from, to);
  };

const isBuiltin = (s: string): boolean => s.startsWith('node:') || builtinModules.includes(s);
const dependencyOf =
  (deps: Record<string, string>) =>
  (s: string): boolean =>
    isBuiltin(s) || Object.keys(deps).some((d) => s === d || s.startsWith(`${d}/`));

/** The generated plain JavaScript (ajv standalone validators) with its .d.ts files: tsc does not emit them, so they are copied. */
const GENERATED_JS = (): string[] =>
  walk(join(ROOT, 'src', 'generated'))
    .map((f) => relative(ROOT, f))
    .filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'));

const entryExport = (name: string) => ({ types: `./src/client/${name}.d.ts`, default: `./src/client/${name}.js` });

const CLIENT: PackageSpec = {
  dir: 'client',
  manifest: {
    name: '@l2node/client',
    ...REPOSITORY_FILES,
    description:
      'Typed JSON-RPC clients for an l2node (public, admin and dev APIs), generated from its OpenRPC documents, and a tx builder for dev nodes. Zero dependencies (global fetch).',
    type: 'module',
    sideEffects: false,
    engines: { node: '>=18' },
    exports: {
      '.': entryExport('index'),
      './public': entryExport('public'),
      './admin': entryExport('admin'),
      './dev': entryExport('dev'),
      './tx': entryExport('tx'),
      './package.json': './package.json',
    },
    types: './src/client/index.d.ts',
    files: ['src', 'README.md'],
  },
  entries: [
    'src/client/index.ts',
    'src/client/public.ts',
    'src/client/admin.ts',
    'src/client/dev.ts',
    'src/client/tx.ts',
  ],
  assets: [],
  // The node hashes on a WebAssembly kernel read from disk; the client hashes with the BigInt
  // reference (the kernel's oracle), which runs in any JavaScript runtime.
  substitutions: {
    'src/impl/crypto/poseidon2.ts': [
      '/** Poseidon2 for the client package (scripts/pack.ts): the BigInt reference, no WebAssembly file to read. @module */',
      "export * from './poseidon2-reference.ts';",
      "export { poseidon2HashReference as poseidon2Hash, poseidon2HashWithSeparatorReference as poseidon2HashWithSeparator, poseidon2PermutationReference as poseidon2Permutation } from './poseidon2-reference.ts';",
      '',
    ].join('\n'),
    // The sliced hash (the node's, for callers' txs) yields with node:timers; the client yields with setTimeout.
    'src/impl/crypto/poseidon2-sliced.ts': replaceOnce(
      "import { setImmediate as nextTurn } from 'node:timers/promises';",
      'const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));',
    ),
  },
  allowedImports: () => false,
  compilerOptions: { lib: ['es2023', 'dom'], target: 'es2022' },
};

const CONFORMANCE_DEPS = { ajv: root.dependencies.ajv! };
const CONFORMANCE: PackageSpec = {
  dir: 'conformance',
  manifest: {
    name: '@l2node/conformance',
    ...REPOSITORY_FILES,
    description:
      'The l2node conformance suite: replays the protocol suite and the recorded fixtures against any implementation of the l2node OpenRPC documents.',
    type: 'module',
    engines: { node: '>=20' },
    bin: { 'l2node-conformance': 'bin/l2node-conformance.js' },
    exports: { './chain.json': './test/conformance/chain/chain.json', './package.json': './package.json' },
    files: ['bin', 'src', 'test', 'openrpc.public.json', 'openrpc.admin.json', 'README.md'],
    dependencies: CONFORMANCE_DEPS,
  },
  entries: ['src/conformance/cli.ts'],
  assets: [
    'test/conformance/fixtures',
    'test/conformance/chain/chain.json',
    'openrpc.public.json',
    'openrpc.admin.json',
    ...GENERATED_JS(),
  ],
  allowedImports: dependencyOf(CONFORMANCE_DEPS),
  compilerOptions: { target: 'es2022', lib: ['es2023'] },
};

const NODE_DEPS = root.dependencies;
const NODE: PackageSpec = {
  dir: 'node',
  manifest: {
    name: 'l2node',
    ...REPOSITORY_FILES,
    description:
      'A layer-2 rollup node (Aztec v4 style) serving the node_* and nodeAdmin_* JSON-RPC APIs, built spec-first from OpenRPC documents.',
    type: 'module',
    engines: { node: '>=18' },
    bin: { l2node: 'bin/l2node.js' },
    exports: { './package.json': './package.json' },
    files: ['bin', 'src', 'openrpc.public.json', 'openrpc.admin.json', 'openrpc.dev.json', 'README.md'],
    dependencies: NODE_DEPS,
    ...(root.allowScripts === undefined ? {} : { allowScripts: root.allowScripts }),
  },
  entries: [], // every source file below, see nodeEntries()
  assets: [
    'src/impl/crypto/wasm/poseidon2.wasm',
    'src/impl/crypto/wasm/poseidon2-scalar.wasm',
    'openrpc.public.json',
    'openrpc.admin.json',
    'openrpc.dev.json',
    ...GENERATED_JS(),
  ],
  allowedImports: dependencyOf(NODE_DEPS),
  compilerOptions: { declaration: false },
};

/** The node's sources: all of src/ but the client package, the conformance runner and the wasm build tool. */
function nodeEntries(): string[] {
  return walk(join(ROOT, 'src'))
    .map((f) => relative(ROOT, f))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .filter(
      (f) => !f.startsWith('src/client/') && !f.startsWith('src/conformance/') && f !== 'src/impl/crypto/wasm/build.ts',
    );
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Stages, compiles, checks and packs one package; returns the tarball path. */
function build(spec: PackageSpec): string {
  const stage = join(BUILD, spec.dir, 'stage');
  const pkg = join(BUILD, spec.dir, 'package');
  rmSync(join(BUILD, spec.dir), { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  cpSync(join(ROOT, 'src'), join(stage, 'src'), { recursive: true });
  for (const [path, text] of Object.entries(spec.substitutions ?? {})) {
    writeFileSync(join(stage, path), typeof text === 'string' ? text : text(readFileSync(join(stage, path), 'utf8')));
  }
  const manifest = `${JSON.stringify(spec.manifest, null, 2)}\n`;
  // src/config/package-info.ts imports ../../package.json: the package's own manifest answers it.
  writeFileSync(join(stage, 'package.json'), manifest);
  const entries = spec.entries.length > 0 ? spec.entries : nodeEntries();
  writeFileSync(
    join(stage, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'es2024',
          lib: ['es2024'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          verbatimModuleSyntax: true,
          erasableSyntaxOnly: true,
          resolveJsonModule: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          rewriteRelativeImportExtensions: true,
          declaration: true,
          rootDir: '.',
          outDir: pkg,
          ...spec.compilerOptions,
        },
        files: entries,
      },
      null,
      2,
    ),
  );
  execFileSync(process.execPath, [TSC, '-p', join(stage, 'tsconfig.json')], { stdio: 'inherit', cwd: stage });
  for (const asset of spec.assets) {
    mkdirSync(dirname(join(pkg, asset)), { recursive: true });
    cpSync(join(ROOT, asset), join(pkg, asset), { recursive: true });
  }
  cpSync(join(ROOT, 'packages', spec.dir), pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), manifest);
  checkImports(pkg, spec);
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', OUT], { cwd: pkg, encoding: 'utf8' });
  const [info] = JSON.parse(out) as { filename: string; size: number; unpackedSize: number; entryCount: number }[];
  console.log(
    `pack: ${spec.manifest.name} → dist/packages/${info!.filename} (${kb(info!.size)} packed, ${kb(info!.unpackedSize)} unpacked, ${info!.entryCount} files)`,
  );
  return join(OUT, info!.filename);
}

/** Fails when compiled JavaScript imports anything the package may not (a server dependency in the client, say). */
function checkImports(pkg: string, spec: PackageSpec): void {
  const bad: string[] = [];
  for (const file of walk(join(pkg, 'src')).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(file, 'utf8');
    const specifiers =
      /^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"\s]+)['"]|^\s*import\s*['"]([^'"\s]+)['"]|\b(?:import|require)\s*\(\s*['"]([^'"\s]+)['"]\s*\)/gm;
    for (const m of text.matchAll(specifiers)) {
      const s = (m[1] ?? m[2] ?? m[3])!;
      if (s.startsWith('.')) {
        if (s.endsWith('.ts')) bad.push(`${relative(pkg, file)}: ${s} (a .ts import left in compiled output)`);
        else if (!existsSync(join(dirname(file), s))) bad.push(`${relative(pkg, file)}: ${s} (missing)`);
      } else if (!spec.allowedImports(s)) bad.push(`${relative(pkg, file)}: ${s}`);
    }
  }
  if (bad.length > 0) throw new Error(`${spec.manifest.name}: imports it must not make:\n  ${bad.join('\n  ')}`);
}

const kb = (n: number): string => (n >= 1_048_576 ? `${(n / 1_048_576).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} kB`);

mkdirSync(OUT, { recursive: true });
for (const f of readdirSync(OUT)) if (f.endsWith('.tgz')) rmSync(join(OUT, f));
const only = process.argv.slice(2);
for (const spec of [CLIENT, CONFORMANCE, NODE]) if (only.length === 0 || only.includes(spec.dir)) build(spec);
