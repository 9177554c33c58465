/**
 * The dev chain's one validator (docs/KEYSTORE.md "Dev validator"): a node started without
 * `--keystore` runs it, it is the whole registered set, hence every slot's proposer. Its key is
 * the first well-known Anvil/Hardhat development key — public knowledge, for local chains only.
 * @module
 */
import { parseKeystoreFile, type Keystore } from './keystore.ts';
import { hex32 } from '../encoding/hex.ts';

/** The documented development private key (Anvil account 0). Never use it on a real network. */
export const DEV_VALIDATOR_PRIVATE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
/** Its address: also the engine's default coinbase. */
export const DEV_VALIDATOR_ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/** The dev validator as a keystore (fee recipient: the engine's default, 0x1001). */
export function devKeystore(feeRecipient: bigint = 0x1001n): Keystore {
  const text = JSON.stringify({
    schemaVersion: 1,
    validators: [
      { attester: DEV_VALIDATOR_PRIVATE_KEY, coinbase: DEV_VALIDATOR_ADDRESS, feeRecipient: hex32(feeRecipient) },
    ],
  });
  return { validators: parseKeystoreFile('dev-validator', text) };
}
