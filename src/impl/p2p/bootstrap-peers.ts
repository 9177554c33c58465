/**
 * Bootstrap peers from config: each entry is a libp2p multiaddr with a `/p2p/<peer id>` part or
 * an ENR (whose secp256k1 key gives the peer id and whose ip/tcp give the address).
 * @module
 */
import { multiaddr } from '@multiformats/multiaddr';
import type { Multiaddr } from '@multiformats/multiaddr';
import { publicKeyFromRaw } from '@libp2p/crypto/keys';
import { peerIdFromPublicKey } from '@libp2p/peer-id';
import { decodeEnr } from './enr.ts';
import type { Enr } from './enr.ts';

/** The libp2p peer id string a (decoded) ENR's key stands for. */
export function enrPeerId(enr: Enr): string {
  return peerIdFromPublicKey(publicKeyFromRaw(enr.publicKey)).toString();
}

/** Parses one bootstrap entry; throws with the entry in the message when it is unusable. */
export function parseBootstrapPeer(entry: string): Multiaddr {
  const text = entry.trim();
  if (text.startsWith('enr:')) {
    let enr: Enr;
    try {
      enr = decodeEnr(text);
    } catch (err) {
      throw new Error(`p2p: bootstrap ENR ${text}: ${(err as Error).message}`);
    }
    const id = enrPeerId(enr);
    if (enr.ip !== undefined && enr.tcp !== undefined) return multiaddr(`/ip4/${enr.ip}/tcp/${enr.tcp}/p2p/${id}`);
    if (enr.ip6 !== undefined && (enr.tcp6 ?? enr.tcp) !== undefined) {
      return multiaddr(`/ip6/${enr.ip6}/tcp/${enr.tcp6 ?? enr.tcp}/p2p/${id}`);
    }
    throw new Error(`p2p: bootstrap ENR ${text} has no IP and TCP port`);
  }
  let ma: Multiaddr;
  try {
    ma = multiaddr(text);
  } catch (err) {
    throw new Error(`p2p: bootstrap peer ${text}: not a multiaddr or ENR (${(err as Error).message})`);
  }
  if (ma.getComponents().find((c) => c.name === 'p2p') === undefined) {
    throw new Error(`p2p: bootstrap peer ${text} lacks /p2p/<peer id>`);
  }
  return ma;
}
