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
