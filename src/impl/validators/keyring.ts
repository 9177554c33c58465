/**
 * The validator keys this node runs, with `reload()` for nodeAdmin_reloadKeystore (SPEC §4.12):
 * attester keys are added, removed or replaced, and coinbase, fee recipient and the
 * publisher-to-validator mapping updated without a restart. The publisher signers themselves are
 * fixed at startup: a validator naming any other publisher rejects the whole reload, and a
 * rejected reload leaves the running keys exactly as they were.
 * @module
 */
import { KeystoreError, loadKeystore, type Keystore, type KeystoreValidator, type Signer } from './keystore.ts';
import type { EthAddressHex } from './signer.ts';

/** What a reload changed, by attester address. */
export interface KeystoreChange {
  readonly added: readonly EthAddressHex[];
  readonly removed: readonly EthAddressHex[];
  /** Same attester, other coinbase, fee recipient or publishers. */
  readonly updated: readonly EthAddressHex[];
}

/** Where the keys come from. */
export interface KeyringOptions {
  /** Keystore file or directory; undefined when the node was started without one. */
  readonly path?: string;
  /** The node runs no validator (keys are still not loaded). */
  readonly disabled?: boolean;
  /** The validators run without a path (the dev validator); reloading still needs a path. */
  readonly fallback?: Keystore;
}

/** The running validator keys. */
export class ValidatorKeyring {
  readonly #path: string | undefined;
  readonly #disabled: boolean;
  /** Publisher addresses initialised at startup; reloads may only use these. */
  readonly #startupPublishers: ReadonlySet<EthAddressHex>;
  #byAttester: ReadonlyMap<EthAddressHex, KeystoreValidator>;
  readonly #listeners: ((change: KeystoreChange) => void)[] = [];

  private constructor(path: string | undefined, disabled: boolean, keystore: Keystore) {
    this.#path = path;
    this.#disabled = disabled;
    this.#byAttester = new Map(keystore.validators.map((v) => [v.attester.address, v]));
    this.#startupPublishers = new Set(keystore.validators.flatMap((v) => v.publishers.map((p) => p.address)));
  }

  /** Loads the keystore at startup (without a path: the fallback, else empty; empty when disabled). */
  static open(options: KeyringOptions = {}): ValidatorKeyring {
    const empty: Keystore = { validators: [] };
    const keystore =
      options.disabled === true
        ? empty
        : options.path === undefined
          ? (options.fallback ?? empty)
          : loadKeystore(options.path);
    return new ValidatorKeyring(options.path, options.disabled === true, keystore);
  }

  /** Attester addresses this node runs. */
  get attesters(): readonly EthAddressHex[] {
    return [...this.#byAttester.keys()];
  }

  /** Publisher addresses initialised at startup. */
  get publishers(): readonly EthAddressHex[] {
    return [...this.#startupPublishers];
  }

  /** The validator entry of an attester this node runs. */
  get(attester: string): KeystoreValidator | undefined {
    return this.#byAttester.get(attester.toLowerCase() as EthAddressHex);
  }

  /** The attester's signing key, when this node runs it. */
  signerOf(attester: string): Signer | undefined {
    return this.get(attester)?.attester;
  }

  /** Calls `listener` after each successful reload. */
  onChange(listener: (change: KeystoreChange) => void): void {
    this.#listeners.push(listener);
  }

  /** Re-reads the keystore and swaps the keys in; throws KeystoreError and changes nothing on failure. */
  reload(): KeystoreChange {
    if (this.#path === undefined) throw new KeystoreError('NO_KEYSTORE_DIRECTORY');
    if (this.#disabled) throw new KeystoreError('VALIDATOR_DISABLED');
    const next = loadKeystore(this.#path);
    for (const v of next.validators) {
      const unknown = v.publishers.find((p) => !this.#startupPublishers.has(p.address));
      if (unknown !== undefined) {
        throw new KeystoreError(
          'UNKNOWN_PUBLISHER',
          `publisher ${unknown.address} was not initialized at startup`,
          v.attester.address,
        );
      }
    }
    const before = this.#byAttester;
    const after = new Map(next.validators.map((v) => [v.attester.address, v]));
    const change: KeystoreChange = {
      added: [...after.keys()].filter((a) => !before.has(a)),
      removed: [...before.keys()].filter((a) => !after.has(a)),
      updated: [...after.keys()].filter((a) => before.has(a) && !sameSettings(before.get(a)!, after.get(a)!)),
    };
    this.#byAttester = after;
    for (const l of this.#listeners) l(change);
    return change;
  }
}

function sameSettings(a: KeystoreValidator, b: KeystoreValidator): boolean {
  const pubs = (v: KeystoreValidator) => v.publishers.map((p) => p.address).join(',');
  return a.coinbase === b.coinbase && a.feeRecipient === b.feeRecipient && pubs(a) === pubs(b);
}
