/**
 * Domain errors of the tx codec. The RPC layer maps `TxDecodeError` to -32602 naming the
 * parameter (docs/ARCHITECTURE.md, error catalogue).
 * @module
 */

/** A `Tx` (JSON, `data` or `chonkProof`) that does not decode; `path` names the offending part. */
export class TxDecodeError extends Error {
  /** Where the problem is, e.g. `tx.data.constants.txContext.chainId` or `tx.publicFunctionCalldata[1]`. */
  readonly path: string;
  /** What is wrong there, without the path, e.g. `value >= field modulus`. */
  readonly detail: string;

  constructor(path: string, detail: string) {
    super(`${path}: ${detail}`);
    this.name = 'TxDecodeError';
    this.path = path;
    this.detail = detail;
  }
}
