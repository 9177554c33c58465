/**
 * Where a follower gets the chain from: another node's public RPC (`RpcBlockSource`) or peers
 * over the p2p blocks- and checkpoints-by-range protocols (`p2p-block-source.ts`). Sources hand out decoded but
 * unverified values; the follower verifies everything by re-applying it.
 * @module
 */
import { createNodeClient } from '../../generated/public/client.ts';
import type { NodeClient } from '../../generated/public/client.ts';
import type { BlockImportError } from '../chain/block-import.ts';
import type { L2Block, L2Tips } from '../chain/types.ts';
import { fromWireBlock, fromWireL2Tips, fromWirePublishedCheckpoint } from '../encoding/wire/blocks-decode.ts';
import type { DecodedCheckpoint } from '../encoding/wire/blocks-decode.ts';

/** A source of blocks, tips and (when it has them) checkpoints. */
export interface BlockSource {
  /** For logs and status: the URL or peer. */
  readonly name: string;
  /** Most blocks one `getBlocks` call may ask for. */
  readonly maxBlocksPerRequest: number;
  /**
   * The source's tips; undefined when it has none (peers that do not serve them, or a p2p
   * source without checkpoints): the follower then reads batches until one comes back short,
   * and imports no checkpoints and no proof tips.
   */
  getTips(): Promise<L2Tips | undefined>;
  /** Blocks `from` … in order, at most `limit` (fewer at the source's tip). */
  getBlocks(from: number, limit: number): Promise<L2Block[]>;
  /** Checkpoints `from` … with their blocks; absent when the source cannot serve them. */
  getCheckpoints?(from: number, limit: number): Promise<DecodedCheckpoint[]>;
  /** Told when a block or checkpoint it served does not verify (a p2p source penalises the peer). */
  refused?(error: BlockImportError): void;
}

/** Follows a node through its public JSON-RPC API (node_getL2Tips, node_getBlocks, node_getCheckpoints). */
export class RpcBlockSource implements BlockSource {
  readonly name: string;
  readonly maxBlocksPerRequest = 100;
  readonly #client: NodeClient;
  readonly #timeoutMs: number;

  /** `timeoutMs` bounds each call, so that a hung source cannot hold a sync step (and a pause) forever. */
  constructor(url: string, timeoutMs = 30_000) {
    this.name = url;
    this.#timeoutMs = timeoutMs;
    // No batching: the follower's calls are sequential, and one block page can be large.
    this.#client = createNodeClient(url, { batch: false });
  }

  async getTips(): Promise<L2Tips> {
    return fromWireL2Tips(await this.#bounded('node_getL2Tips', this.#client.getL2Tips()));
  }

  async getBlocks(from: number, limit: number): Promise<L2Block[]> {
    const page: unknown = await this.#bounded(
      'node_getBlocks',
      this.#client.getBlocks(from, Math.min(limit, this.maxBlocksPerRequest)),
    );
    if (!Array.isArray(page)) throw new Error(`node_getBlocks from ${this.name}: not an array`);
    return page.map(fromWireBlock);
  }

  async getCheckpoints(from: number, limit: number): Promise<DecodedCheckpoint[]> {
    const page: unknown = await this.#bounded(
      'node_getCheckpoints',
      this.#client.getCheckpoints(from, Math.min(limit, 50)),
    );
    if (!Array.isArray(page)) throw new Error(`node_getCheckpoints from ${this.name}: not an array`);
    return page.map(fromWirePublishedCheckpoint);
  }

  async #bounded<T>(method: string, call: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${method} from ${this.name}: no answer within ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
    });
    try {
      return await Promise.race([call, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
