/**
 * Entry point: parse the configuration, resolve the admin API key, build the node
 * (src/impl/node.ts), start the public and admin JSON-RPC servers over it, and shut down
 * cleanly on SIGINT/SIGTERM.
 * @module
 */
import { join } from 'node:path';
import { API_KEY_HASH_FILE, renderNewKeyBanner, resolveAdminApiKey } from './config/admin-api-key.ts';
import { renderHelp } from './config/help.ts';
import type { Config } from './config/options.ts';
import { PACKAGE_VERSION } from './config/package-info.ts';
import { ConfigError, parseCommand } from './config/parse.ts';
import { createAdminHandlers } from './impl/rpc/admin/index.ts';
import { createDevHandlers } from './impl/rpc/dev/index.ts';
import { answerCachesOver, withAnswerCache } from './impl/rpc/public/answer-cache.ts';
import { createNode } from './impl/node.ts';
import { NodeMetrics } from './impl/metrics/node-metrics.ts';
import { startMetricsServer } from './impl/metrics/metrics-server.ts';
import type { MetricsServer } from './impl/metrics/metrics-server.ts';
import { readOnlyAdminHandlers } from './impl/reader/reader-node.ts';
import { restoreSnapshotAtStart } from './impl/snapshots/snapshot-startup.ts';
import type { L2Node } from './impl/node-types.ts';
import { createApiKeyAuth } from './server/auth.ts';
import { createRpcServer } from './server/http.ts';
import type { RpcServer } from './server/http.ts';
import { createLogger } from './server/logger.ts';
import { versionHeaderPairs } from './server/version-headers.ts';
import type { Logger } from './server/types.ts';
import { adminMethods } from './generated/admin/methods.ts';
import { devMethods } from './generated/dev/methods.ts';
import { publicMethods } from './generated/public/methods.ts';
import type { PublicHandlers } from './generated/public/handlers.ts';
import { hex32 } from './impl/encoding/hex.ts';

/** Something to close on shutdown (storage, engine parts), in reverse order of registration. */
export type CloseHook = () => Promise<void> | void;

/** A running node, as `main` returns it. */
export interface RunningNode {
  readonly config: Config;
  readonly publicAddress: { host: string; port: number };
  readonly adminAddress: { host: string; port: number };
  /** The metrics listener's address (with --metrics-port). */
  readonly metricsAddress?: { host: string; port: number };
  /** The engine, pool, p2p and handlers behind the servers. */
  readonly node: L2Node;
  /** Stops both servers and runs the close hooks. */
  stop(): Promise<void>;
}

/** Runs the node with `argv` (flags only) and `env`; exits the process on bad config or signals. */
export async function main(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<RunningNode | undefined> {
  let config: Config;
  try {
    const command = parseCommand(argv, env);
    if (command.kind === 'help') {
      process.stdout.write(renderHelp());
      return undefined;
    }
    config = command.config;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    createLogger('info').fatal(`invalid configuration: ${err.message}`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  // Installed before the servers listen: a signal that arrives while starting must not kill the
  // process with the OS default action; it waits for startup, then shuts down cleanly.
  const starting = start(config, logger);
  installSignalHandlers(starting, logger);
  try {
    return await starting;
  } catch (err) {
    logger.fatal('startup failed', { err });
    process.exit(1);
  }
}

async function start(config: Config, logger: Logger): Promise<RunningNode> {
  // Storage and engine parts push their close() here as they are opened; shutdown runs them in reverse.
  const closeHooks: CloseHook[] = [];
  // Metrics first: a long snapshot restore or chain import is already watched (process metrics, then the node's).
  const metrics =
    config.metricsPort === undefined ? undefined : new NodeMetrics({ dataDirectory: config.dataDirectory });
  const metricsServer =
    metrics === undefined
      ? undefined
      : await startMetricsServer(metrics, config.metricsPort!, config.metricsHost ?? '127.0.0.1', logger);
  try {
    // First: the data directory must still be empty (the admin key hash goes there next).
    await restoreSnapshotAtStart(config, logger);
    const auth = await setUpAdminAuth(config, logger);
    const node = await createNode({
      config,
      logger,
      nodeVersion: PACKAGE_VERSION,
      admin: true,
      ...(metrics && { metrics }),
    });
    return await serve(config, logger, node, auth, closeHooks, metrics, metricsServer);
  } catch (err) {
    await metricsServer?.close();
    throw err;
  }
}

async function serve(
  config: Config,
  logger: Logger,
  node: L2Node,
  auth: Awaited<ReturnType<typeof setUpAdminAuth>>,
  closeHooks: CloseHook[],
  metrics: NodeMetrics | undefined,
  metricsServer: MetricsServer | undefined,
): Promise<RunningNode> {
  metrics?.watchNode(node);
  closeHooks.push(() => node.stop());
  // Opened with the node (NodeOptions.admin), whose production gate, sentinel and validators it drives.
  const admin = node.admin!;
  // Runs before node.stop (hooks run in reverse): a snapshot being copied finishes first, for at
  // most the shutdown timeout (a stuck target filesystem must not keep the process alive).
  closeHooks.push(async () => {
    const finished = await Promise.race([
      admin.snapshots.idle().then(
        () => true,
        () => true,
      ),
      new Promise<false>((resolve) => setTimeout(resolve, config.shutdownTimeoutMs, false).unref()),
    ]);
    if (!finished)
      logger.warn(
        'shutdown: a snapshot upload was still running and is abandoned (its target holds no snapshot.json)',
        { waitedMs: config.shutdownTimeoutMs },
      );
  });
  const limits = { maxBodyBytes: config.maxBodyBytes, maxBatchSize: config.maxBatchSize };
  const responseHeaders = versionHeaderPairs({
    l1ChainId: config.l1ChainId,
    rollupVersion: config.rollupVersion,
    l1RollupAddress: node.engine.l1.addresses.rollupAddress,
    packageVersion: PACKAGE_VERSION,
  });
  const common = { limits, logger, health: () => node.health(), responseHeaders };
  // Immutable answers (blocks, historical witnesses) are served from their cached JSON text (rpc/public/answer-cache.ts).
  // The node's set holds every public method but the validator stats, which come from the slot record the
  // admin side opened (validators/handlers.ts): the two sets are disjoint, so no handler wins by spread order.
  const answerCaches = answerCachesOver(node.engine.chain);
  metrics?.watchCaches(() => [
    { cache: 'answers_pinned', ...answerCaches.pinned.size },
    { cache: 'answers_tip', ...answerCaches.tip.size },
  ]);
  const publicHandlers = withAnswerCache(
    { ...node.publicHandlers, ...admin.validatorHandlers } satisfies PublicHandlers,
    answerCaches,
  );
  const publicServer = createRpcServer({
    ...common,
    ...allowLists(config.corsOrigin, config.vhosts, { vhosts: '--vhosts', corsOrigin: '--cors-origin' }),
    methods: publicMethods,
    handlers: publicHandlers,
    ...(metrics && { observer: metrics.rpc.observer('public') }),
  });
  // The admin port serves nodeAdmin_* and the development-only dev_* (openrpc.dev.json), one key for both.
  const adminServer = createRpcServer({
    ...common,
    ...allowLists(config.adminCorsOrigin, config.adminVhosts, {
      vhosts: '--admin-vhosts',
      corsOrigin: '--admin-cors-origin',
    }),
    methods: { ...adminMethods, ...devMethods },
    handlers: {
      ...(node.role.kind === 'reader'
        ? readOnlyAdminHandlers(createAdminHandlers({ ...admin.adminDeps, logger }))
        : createAdminHandlers({ ...admin.adminDeps, logger })),
      ...devHandlers(node, config),
    },
    ...(auth === undefined ? {} : { auth }),
    ...(metrics && { observer: metrics.rpc.observer('admin') }),
  });
  const started: RpcServer[] = [];
  try {
    const publicAddress = await publicServer.listen(config.port, config.host);
    started.push(publicServer);
    const adminAddress = await adminServer.listen(config.adminPort, config.adminHost);
    started.push(adminServer);
    await node.start();
    // Once per chain, when it is created; before the "listening" lines, so whoever waits for those finds them printed.
    if (node.newChain) process.stdout.write(renderFundedAccounts(node));
    logStorageAndChain(config, node, logger);
    logger.info('public JSON-RPC listening', {
      surface: 'public',
      ...publicAddress,
      methods: Object.keys(publicMethods).length,
    });
    logger.info('admin JSON-RPC listening', { surface: 'admin', ...adminAddress, auth: auth !== undefined });
    if (metricsServer !== undefined) {
      logger.info('metrics listening', { ...metricsServer.address, path: '/metrics' });
      // Closed last: a scrape during shutdown still answers.
      closeHooks.unshift(() => metricsServer.close());
    }
    let stopping: Promise<void> | undefined;
    const stop = () => {
      stopping ??= (async () => {
        await Promise.all(started.map((s) => s.close(config.shutdownTimeoutMs)));
        for (const hook of closeHooks.reverse()) await hook();
      })();
      return stopping;
    };
    return {
      config,
      publicAddress,
      adminAddress,
      node,
      stop,
      ...(metricsServer && { metricsAddress: metricsServer.address }),
    };
  } catch (err) {
    await Promise.all(started.map((s) => s.close(0)));
    await node.stop();
    throw err;
  }
}

/** One port's origin and Host allow-lists; an empty Host list leaves the server's default (loopback names and the bound address). */
function allowLists(
  corsOrigins: readonly string[],
  vhosts: readonly string[],
  allowListFlags: { vhosts: string; corsOrigin: string },
) {
  return { corsOrigins, allowListFlags, ...(vhosts.length > 0 ? { allowedHosts: vhosts } : {}) };
}

/** The dev_* handlers over the node's in-process L1. */
function devHandlers(node: L2Node, config: Config) {
  const { engine } = node;
  return createDevHandlers({
    l1: engine.l1,
    rollupVersion: config.rollupVersion,
    role: node.role.kind,
    consumedInboxCount: () => engine.chain.consumedInboxCount(),
    latestBlockCheckpoint: async () => (await engine.chain.findBlock('latest'))?.checkpointNumber ?? 0,
  });
}

function logStorageAndChain(config: Config, node: L2Node, logger: Logger): void {
  // The URL's password never reaches the logs.
  const database = config.databaseUrl ? config.databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@') : undefined;
  logger.info('storage open', {
    dataDirectory: config.dataDirectory === '' ? '(in memory)' : config.dataDirectory,
    database: database ?? (config.dataDirectory === '' ? 'sqlite :memory:' : 'sqlite'),
  });
  logger.info('chain', {
    l1ChainId: config.l1ChainId,
    rollupVersion: config.rollupVersion,
    slotDurationSeconds: config.slotDurationSeconds,
    role: node.role.kind,
    ...(node.role.kind === 'follower' && { follow: { over: node.role.over, source: node.role.source } }),
    sequencer: node.role.kind === 'sequencer',
    p2p: node.p2p === undefined ? 'disabled' : { listen: node.p2p.getListenAddresses() },
  });
}

/** The dev accounts funded at genesis (addresses and FeeJuice amounts), as printed on stdout. */
function renderFundedAccounts(node: L2Node): string {
  const lines = node.fundedAccounts.map((a) => `  ${hex32(a.address)}  ${a.amount}`);
  return ['Funded dev accounts (FeeJuice balance, base units):', ...lines, ''].join('\n');
}

async function setUpAdminAuth(config: Config, logger: Logger) {
  const state = await resolveAdminApiKey(config);
  if (!state.enabled) {
    logger.warn(
      'ADMIN API KEY AUTHENTICATION IS DISABLED (--no-admin-api-key): anyone who can reach the admin port can control this node',
    );
    return undefined;
  }
  if (state.newKey !== undefined) {
    const persistedAt = config.dataDirectory === '' ? undefined : join(config.dataDirectory, API_KEY_HASH_FILE);
    // SPEC §5: printed once to stdout; the logs never carry the key.
    process.stdout.write(renderNewKeyBanner(state.newKey, persistedAt));
    logger.info('admin API key generated', { persisted: persistedAt !== undefined });
  } else {
    logger.info('admin API key hash loaded', { source: state.source });
  }
  return createApiKeyAuth(state.hashHex);
}

function installSignalHandlers(starting: Promise<RunningNode>, logger: Logger): void {
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info('shutting down', { signal });
    starting
      .then((node) => node.stop())
      .then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (err: unknown) => {
          logger.fatal('shutdown failed', { err });
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

if (import.meta.main) await main(process.argv.slice(2), process.env);
