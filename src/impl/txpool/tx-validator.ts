/**
 * The node's tx validation (`node_isValidTx`, and before every `node_sendTx`): the validation
 * context and the stateful callbacks of `validateTx` built over a `ChainView`, the setup
 * allow-list and a `ProofVerifier`. Options: `isSimulation` skips the proof,
 * `skipFeeEnforcement` the fee-per-gas and balance checks.
 * @module
 */

import type { AllowedElement } from '../execution/allow-list.ts';
import { isAllowedSetupCall } from '../execution/allow-list.ts';
import { setupClaim } from '../fees/fees.ts';
import type { Gas, Tx, TxValidationResult } from '../tx/index.ts';
import { computeBlockHeaderHash, validateTx } from '../tx/index.ts';
import type { ChainView } from './chain-view.ts';

/** Checks a tx's client proof. */
export interface ProofVerifier {
  verify(tx: Tx): Promise<boolean>;
}

/** The verifier of a node without real proofs (NodeInfo.realProofs = false): accepts any proof. */
export const ACCEPT_ALL_PROOFS: ProofVerifier = { verify: async () => true };

/** `node_isValidTx` options. */
export interface ValidateOptions {
  readonly isSimulation?: boolean;
  readonly skipFeeEnforcement?: boolean;
}

/** Node limits the validation checks against; every field has a default. */
export interface TxValidatorConfig {
  readonly maxTxSizeBytes: number;
  readonly maxCalldataFields: number;
  /** Fixed minimum gas a tx must allow, private-only and with public calls. */
  readonly minGasLimits: { readonly forPublic: Gas; readonly forRollup: Gas };
  /** Most gas one tx may ask for: the block maximum. */
  readonly maxGasLimits: Gas;
  readonly vkTreeRoot?: bigint;
  readonly protocolContractsHash?: bigint;
}

/**
 * Defaults: 512 KiB size, 12 000 calldata fields (Aztec MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS),
 * fixed minimum gas DA 96 / L2 512 (plus 20 000 L2 AVM start-up for public txs), and the
 * engine's default block maxima.
 */
export const DEFAULT_TX_VALIDATOR_CONFIG: TxValidatorConfig = {
  maxTxSizeBytes: 512 * 1024,
  maxCalldataFields: 12_000,
  minGasLimits: { forRollup: { daGas: 96, l2Gas: 512 }, forPublic: { daGas: 96, l2Gas: 512 + 20_000 } },
  maxGasLimits: { daGas: 10_000_000, l2Gas: 100_000_000 },
};

/** What the node validator is built from. */
export interface TxValidatorDeps {
  readonly chain: ChainView;
  /** The setup allow-list (`node_getAllowedPublicSetup`'s elements), read per validation. */
  allowList(): readonly AllowedElement[];
  /** Class id of a deployed contract instance, for class-id allow-list elements. */
  classIdOf?(address: bigint): Promise<bigint | undefined>;
  readonly proofVerifier?: ProofVerifier;
  readonly config?: Partial<TxValidatorConfig>;
}

/** Validates txs against the node's state. */
export type NodeTxValidator = (tx: Tx, options?: ValidateOptions) => Promise<TxValidationResult>;

/** Creates the validator `node_isValidTx` and `node_sendTx` use. */
export function createNodeTxValidator(deps: TxValidatorDeps): NodeTxValidator {
  const cfg = { ...DEFAULT_TX_VALIDATOR_CONFIG, ...deps.config };
  const verifier = deps.proofVerifier ?? ACCEPT_ALL_PROOFS;
  const { chain } = deps;
  return async (tx, options = {}) =>
    validateTx(
      tx,
      {
        ...cfg,
        chainId: chain.chainId,
        rollupVersion: chain.rollupVersion,
        nextBlockTimestamp: chain.nextBlockTimestamp(),
        nextBlockNumber: (await chain.getBlockNumber()) + 1,
        minFeesPerGas: chain.currentMinFees(),
        skipFeeEnforcement: options.skipFeeEnforcement === true,
        isSimulation: options.isSimulation === true,
      },
      {
        findExistingNullifiers: async (ns) => ns.filter((n) => chain.hasNullifier(n)),
        // A claim paid in the tx's own setup counts, as in the pool's balance rule.
        getFeePayerBalance: async (payer, t) => chain.feeJuiceBalance(payer) + setupClaim(t),
        isAnchorBlockKnown: (t) => chain.isKnownBlockHash(computeBlockHeaderHash(t.data.constants.anchorBlockHeader)),
        isSetupCallAllowed: async ({ request, calldata }) =>
          isAllowedSetupCall(
            {
              contractAddress: request.contractAddress,
              classId: await deps.classIdOf?.(request.contractAddress),
              msgSender: request.msgSender,
              calldata,
            },
            deps.allowList(),
          ),
        verifyProof: (t) => verifier.verify(t),
      },
    );
}
