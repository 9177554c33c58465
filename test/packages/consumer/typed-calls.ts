// Compiled and run by test/packages/packages.test.ts inside a project that installed @l2node/client (excluded from the repository's tsconfig).
/**
 * A client team's first file: typed calls through the installed @l2node/client, compiled with
 * `tsc --strict` (module/moduleResolution nodenext) in a project outside the repository, then run.
 * Prints one JSON line the packages test checks. Arguments: public URL, admin URL, admin key.
 */
import {
  createNodeAdminClient,
  createNodeClient,
  isAnyNodeError,
  isNodeError,
  JsonRpcError,
  type L2Tips,
} from '@l2node/client';
import { ErrorCode as AdminErrorCode, type NodeAdminClient } from '@l2node/client/admin';

// The project has no @types/node: the client's types need nothing from Node.js, so declare the one global used.
declare const process: { readonly argv: readonly string[] };
const [publicUrl, adminUrl, apiKey] = process.argv.slice(2) as [string, string, string];
const node = createNodeClient(publicUrl);
const admin: NodeAdminClient = createNodeAdminClient(adminUrl, { apiKey });

const tips: L2Tips = await node.getL2Tips();
const block = await node.getBlock(tips.proposed.number);
const config = await admin.getConfig();

let typedError: { code: number; requested: unknown; latest: number } | undefined;
try {
  await node.findLeavesIndexes(tips.proposed.number + 1, 1, [
    '0x000000000000000000000000000000000000000000000000000000000000dead',
  ]);
} catch (err) {
  if (isNodeError(err, 'BLOCK_NOT_YET_SYNCED')) {
    const code: -32010 = err.code; // the literal code, typed from the document
    typedError = { code, requested: err.data.requested, latest: err.data.latest };
  } else throw err;
}

let unauthorized: number | undefined;
try {
  await createNodeAdminClient(adminUrl, { apiKey: 'not-the-key' }).getConfig();
} catch (err) {
  if (err instanceof JsonRpcError) unauthorized = err.code;
}

let invalidParam: string | undefined;
try {
  await node.getBlocks(1, 101);
} catch (err) {
  if (isAnyNodeError(err) && err.code === -32602) invalidParam = `${err.data.param}: ${err.data.rule}`;
}

console.log(
  JSON.stringify({
    tip: tips.proposed.number,
    blockNumber: block?.header.globalVariables.blockNumber,
    configKeys: Object.keys(config).length,
    typedError,
    unauthorized,
    invalidParam,
    adminInvalidParams: AdminErrorCode.INVALID_PARAMS,
  }),
);
