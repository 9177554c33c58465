/**
 * Stand-in for the node while src/main.ts does not wire the engine yet: the same public
 * JSON-RPC server (src/server, generated method table, src/impl/rpc/public handlers) over the
 * engine opened on an existing data directory, in its own process. Logs the node's
 * "public JSON-RPC listening" line on stderr so the bench starts it like bin/l2node.js.
 * Run: node bench/rpc/engine-server.ts <dataDirectory>
 * @module
 */
import { publicMethods } from '../../src/generated/public/methods.ts';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { FunctionSignatureRegistry } from '../../src/impl/contracts/function-selector.ts';
import { createEngine, DEFAULT_ENGINE_CONFIG } from '../../src/impl/engine.ts';
import { createPublicHandlers } from '../../src/impl/rpc/public/index.ts';
import { createRpcServer } from '../../src/server/http.ts';
import { silentLogger } from '../../src/server/logger.ts';

const engine = await createEngine({
  dataDirectory: process.argv[2]!,
  clock: new ManualClock(Number(DEFAULT_ENGINE_CONFIG.genesisTime) * 1000),
});
const signatures = new FunctionSignatureRegistry();
const handlers = createPublicHandlers({
  nodeVersion: '4.0.0',
  rollupVersion: engine.config.rollupVersion,
  l1ChainId: engine.config.l1ChainId,
  engine: {
    chain: engine.chain,
    checkpoints: engine.checkpoints,
    worldState: engine.worldState,
    l1: engine.l1,
    protocolContractAddresses: engine.protocolContractAddresses,
    realProofs: false,
    getCurrentMinFees: () => engine.getCurrentMinFees(),
    isReady: () => true,
    getEncodedEnr: () => undefined,
    signatures,
    allowList: () => [],
  },
});
const server = createRpcServer({
  methods: publicMethods,
  handlers,
  limits: { maxBodyBytes: 1_048_576, maxBatchSize: 100 },
  logger: silentLogger,
});
const { port } = await server.listen(0, '127.0.0.1');
process.stderr.write(JSON.stringify({ level: 'info', msg: 'public JSON-RPC listening', port }) + '\n');
process.once('SIGTERM', () => {
  void server
    .close(1000)
    .then(() => engine.stop())
    .then(() => process.exit(0));
});
