/** Import rules CI enforces (npm run lint:deps). */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle makes the start-up order and the ownership of a module unclear; break it with a role factory or an interface.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'generated-is-a-leaf',
      severity: 'error',
      comment: 'Generated code imports nothing from the engine or the server (docs/ARCHITECTURE.md, contract: generated code).',
      from: { path: '^src/generated' },
      to: { path: '^src/(impl|server)' },
    },
    {
      name: 'codec-users-do-not-import-rpc',
      severity: 'error',
      comment: 'p2p, sync and the codec share src/impl/encoding/ (docs/ARCHITECTURE.md, owner: codec); the RPC edge is not their codec.',
      from: { path: '^src/impl/(p2p|sync|encoding)/' },
      to: { path: '^src/impl/rpc/' },
    },
    {
      name: 'engine-throws-domain-errors',
      severity: 'error',
      comment:
        'Engine parts throw their own domain errors; the RPC edge (src/impl/rpc/wire-errors.ts) maps them to the catalogue (docs/ARCHITECTURE.md, "Owner: errors").',
      from: {
        path: '^src/impl/(world-state|chain|sync|p2p|txpool|node-config|validators|slashing|snapshots|sequencer|execution|tx|l1|store|crypto|contracts|encoding|fees)/',
      },
      to: { path: '^src/impl/rpc/(errors|wire-errors)[.]ts$' },
    },
    {
      name: 'src-does-not-import-tests',
      severity: 'error',
      comment: 'Shipped code must not depend on test helpers.',
      from: { path: '^(src|codegen|bin)' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.d.ts'] },
  },
};
