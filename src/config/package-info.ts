/**
 * The node's own package metadata: the version reported by `node_getNodeVersion` and `/status`.
 * @module
 */
import pkg from '../../package.json' with { type: 'json' };

/** The `version` field of package.json, e.g. `4.0.0`. */
export const PACKAGE_VERSION: string = pkg.version;

/** The lowest Node.js version the node runs on (SPEC §9), from `engines.node`. */
export const MIN_NODE_VERSION: string = pkg.engines.node.replace(/^>=\s*/, '');
