import net from 'node:net';
import { privateHostAllowed, type PrivateTargets } from '../../lib/safe-http.ts';

export type DomainResult = { ok: true; domain: string } | { ok: false; reason: string };

// Names that never resolve on the public internet (RFC 6761, RFC 6762, RFC 8375 and
// the usual intranet suffixes): a crawler has nothing to audit there.
const PRIVATE_SUFFIXES = [
  'localhost', 'local', 'localdomain', 'internal', 'intranet', 'lan', 'home', 'corp', 'private',
  'home.arpa', 'test', 'invalid', 'example', 'onion', 'arpa',
];

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A site's domain as the service stores it: lower case, IDN in punycode, no scheme, path,
 * query, port or trailing dot. Only public host names unless private targets are allowed,
 * in which case IP literals, local names and a `host:port` are accepted (test sites; with a
 * list of allowed hosts, only those).
 */
export function normalizeDomain(input: string, allowPrivate: PrivateTargets): DomainResult {
  const raw = input.trim();
  if (raw === '') return { ok: false, reason: 'must not be empty' };
  if (/\s/.test(raw)) return { ok: false, reason: 'must not contain spaces' };

  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  if (scheme && scheme !== 'http' && scheme !== 'https') {
    return { ok: false, reason: 'must be a web address (http or https)' };
  }
  let url: URL;
  try {
    url = new URL(scheme ? raw : `http://${raw}`);
  } catch {
    return { ok: false, reason: 'is not a valid domain name' };
  }
  if (url.username || url.password) return { ok: false, reason: 'must not contain a user name or password' };

  const host = url.hostname.replace(/\.$/, '');
  const bareHost = host.replace(/^\[|\]$/g, '');
  if (privateHostAllowed(allowPrivate, url.host)) {
    if (!net.isIP(bareHost) && !host.split('.').every((label) => LABEL.test(label))) {
      return { ok: false, reason: 'is not a valid domain name' };
    }
    return { ok: true, domain: url.port ? `${host}:${url.port}` : host };
  }

  if (net.isIP(bareHost)) return { ok: false, reason: 'must be a domain name, not an IP address' };
  const labels = host.split('.');
  if (host.length > 253 || !labels.every((label) => LABEL.test(label))) {
    return { ok: false, reason: 'is not a valid domain name' };
  }
  if (labels.length < 2) return { ok: false, reason: 'must be a public domain name such as example.com' };
  if (/^\d+$/.test(labels.at(-1) ?? '')) return { ok: false, reason: 'is not a valid domain name' };
  if (PRIVATE_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) {
    return { ok: false, reason: 'must be a public domain name, not a local or reserved one' };
  }
  return { ok: true, domain: host };
}
