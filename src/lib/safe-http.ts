import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';
import { recordSsrfVerdict } from './trace-api.ts';

/** Thrown (as the connection error) when a host resolves to an address we must not reach. */
export class BlockedAddressError extends Error {
  readonly code = 'E_BLOCKED_ADDRESS';
  /** For logs only: the message, which reaches users (an audit's error, a connector's 422), never names it. */
  readonly address: string;
  constructor(host: string, address: string) {
    super(host === address ? `${host} is a private or reserved address` : `${host} resolves to a private or reserved address`);
    this.address = address;
  }
}

/** IPv6's global unicast block: what ipaddr.js calls "unicast" outside it (::7f00:1, an IPv4-compatible 127.0.0.1) is no public host. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Only ordinary public unicast addresses: no loopback, private, link-local, multicast, unspecified, CGNAT or reserved. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A dns.lookup that refuses non-public answers. It runs when the socket connects, so the
 * check holds for every request, every redirect hop and a DNS answer that changes
 * between two lookups (rebinding): what is checked is what is connected to.
 */
function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback) {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    recordSsrfVerdict(blocked ? 'refused' : 'allowed', blocked?.address ?? addresses[0]?.address);
    if (blocked) return callback(new BlockedAddressError(hostname, blocked.address), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

/**
 * The address to open a socket to for a host name, refused (BlockedAddressError) when any of its answers is not public:
 * for connections made by hand, not through a dispatcher (the page-speed proxy's tunnels). The check and the
 * connection use the same answer, so a name that rebinds between two lookups gains nothing.
 */
export const resolvePublic = (hostname: string) =>
  new Promise<{ address: string; family: number }>((resolve, reject) => {
    guardedLookup(hostname, {}, (err, address, family) => (err ? reject(err) : resolve({ address: address as string, family: family ?? 4 })));
  });

/**
 * Which non-public targets may be reached: none (`false`, the default), any (`true`:
 * ALLOW_PRIVATE_TARGETS, for tests and local sites), or only these exact `host:port`
 * origins (`npm run demo` audits its own local site and nothing else private).
 */
export type PrivateTargets = boolean | { readonly hosts: readonly string[] };

/** Whether `host` (host[:port] as in URL.host) is a private target these rules let through. */
export const privateHostAllowed = (rules: PrivateTargets, host: string) =>
  rules === true || (typeof rules === 'object' && rules.hosts.includes(host));

/** Throws for a URL whose host is an IP literal in a blocked range (sockets skip lookup for those). */
export function assertPublicUrl(url: URL, allowPrivate: PrivateTargets) {
  if (privateHostAllowed(allowPrivate, url.host)) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !isPublicAddress(host)) {
    recordSsrfVerdict('refused', host);
    throw new BlockedAddressError(host, host);
  }
}

/**
 * The dispatcher for fetches of user-given hosts: keep-alive, at most `connectionsPerOrigin`
 * sockets to one origin (the crawler's per-host politeness bound), and the address guard
 * unless private targets are allowed.
 */
export function createOutboundAgent(options: { allowPrivate: PrivateTargets; connectionsPerOrigin: number; timeoutMs: number }) {
  return new Agent({
    connections: options.connectionsPerOrigin,
    connectTimeout: options.timeoutMs,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
    // A list of allowed hosts keeps the guard: those hosts are IP literals, which skip lookup.
    connect: options.allowPrivate === true ? {} : { lookup: guardedLookup as never },
  });
}
