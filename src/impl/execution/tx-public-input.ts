/**
 * From a decoded Tx to the executor's PublicTxInput: the enqueued calls per phase with their
 * calldata (matched by hash, TX-FORMAT §1), gas limits, the private side effects split into
 * non-revertible and revertible, the fee payer, and the gas private execution used.
 * @module
 */
import { getPublicCallRequests } from '../tx/tx-accessors.ts';
import type { Gas, PrivateToPublicAccumulatedData, PublicCallRequest, Tx } from '../tx/types.ts';
import type { EnqueuedCall, PublicTxInput } from './public-tx-executor.ts';
import type { PrivateEffects } from './types.ts';

/** The input plus how many private and contract class logs are revertible (the tail of each list). */
export interface TxPublicPart {
  readonly input: PublicTxInput;
  readonly revertiblePrivateLogs: number;
  readonly revertibleContractClassLogs: number;
}

function privateEffects(d: PrivateToPublicAccumulatedData): PrivateEffects {
  return {
    noteHashes: d.noteHashes.filter((x) => x !== 0n),
    nullifiers: d.nullifiers.filter((x) => x !== 0n),
    l2ToL1Msgs: d.l2ToL1Msgs.filter(
      (m) => m.message.recipient !== 0n || m.message.content !== 0n || m.contractAddress !== 0n,
    ),
  };
}

const minus = (a: Gas, b: Gas): Gas => ({
  daGas: Math.max(0, a.daGas - b.daGas),
  l2Gas: Math.max(0, a.l2Gas - b.l2Gas),
});

/** The public part of a tx with public calls; undefined for a private-only tx or one without calls. */
export function toTxPublicPart(tx: Tx): TxPublicPart | undefined {
  const d = tx.data;
  if (!d.isForPublic) return undefined;
  const { setup, appLogic, teardown } = getPublicCallRequests(d);
  if (setup.length + appLogic.length === 0 && teardown === undefined) return undefined;
  const calldata = new Map(tx.publicFunctionCalldata.map((c) => [c.hash, c.values] as const));
  const call = (r: PublicCallRequest): EnqueuedCall => ({
    contractAddress: r.contractAddress,
    msgSender: r.msgSender,
    isStaticCall: r.isStaticCall,
    calldata: calldata.get(r.calldataHash) ?? [],
  });
  const g = d.constants.txContext.gasSettings;
  const rev = d.forPublic.revertibleAccumulatedData;
  return {
    input: {
      setupCalls: setup.map(call),
      appLogicCalls: appLogic.map(call),
      teardownCall: teardown && call(teardown),
      gasLimits: g.gasLimits,
      teardownGasLimits: g.teardownGasLimits,
      // The private kernel's gasUsed of a tx with public calls includes the teardown limits (Aztec).
      privateGasUsed: minus(d.gasUsed, g.teardownGasLimits),
      nonRevertible: privateEffects(d.forPublic.nonRevertibleAccumulatedData),
      revertible: privateEffects(rev),
      feePayer: d.feePayer,
    },
    revertiblePrivateLogs: rev.privateLogs.filter((l) => l.emittedLength > 0).length,
    revertibleContractClassLogs: rev.contractClassLogsHashes.filter((h) => h.logHash.value !== 0n).length,
  };
}
