/**
 * The Host allow-list of a port (`--vhosts`, `--admin-vhosts`): a request whose `Host` header names
 * another host is refused with 403 before the key or the body is read. This is what stops DNS
 * rebinding: a page on `evil.example` whose name now resolves to 127.0.0.1 still sends
 * `Host: evil.example` (docs/OPERATIONS.md "Browser safety and hostile callers").
 * @module
 */
import { networkInterfaces } from 'node:os';

/** Names every loopback-bound port answers to by default. */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '::1'];

/** Normalises a host name or address as written in a flag or a Host header: lower case, no brackets, no trailing dot. */
export function normalizeHostName(name: string): string {
  let host = name.trim().toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** The host part of a `Host` header (`name`, `name:port`, `[v6]`, `[v6]:port`), normalised; undefined when malformed. */
export function hostOfHeader(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  if (header.startsWith('[')) {
    const end = header.indexOf(']');
    if (end < 0) return undefined;
    const rest = header.slice(end + 1);
    if (rest !== '' && !/^:\d+$/.test(rest)) return undefined;
    return normalizeHostName(header.slice(1, end));
  }
  const colon = header.indexOf(':');
  if (colon >= 0 && !/^\d+$/.test(header.slice(colon + 1))) return undefined;
  return normalizeHostName(colon < 0 ? header : header.slice(0, colon));
}

/** Whether `host` is a loopback name or address (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = normalizeHostName(host);
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\./.test(h);
}

/**
 * The default allow-list of a port bound to `boundHost` (as configured) at `boundAddress` (as
 * resolved): the loopback names, the bound name and address, and on a wildcard bind (0.0.0.0, ::)
 * every address of this machine's interfaces.
 */
export function defaultAllowedHosts(boundHost: string, boundAddress: string): string[] {
  const hosts = new Set([...LOOPBACK_NAMES, normalizeHostName(boundHost), normalizeHostName(boundAddress)]);
  if (boundAddress === '0.0.0.0' || boundAddress === '::') {
    for (const list of Object.values(networkInterfaces()))
      for (const a of list ?? []) hosts.add(normalizeHostName(a.address));
  }
  return [...hosts];
}

/** Whether a request with this `Host` header may be served; `*` in `allowed` allows any (also a missing one). */
export function createHostCheck(allowed: readonly string[]): (hostHeader: string | undefined) => boolean {
  if (allowed.includes('*')) return () => true;
  const hosts = new Set(allowed.map(normalizeHostName));
  return (header) => {
    const host = hostOfHeader(header);
    return host !== undefined && hosts.has(host);
  };
}
