import dns from 'node:dns/promises';
import net from 'node:net';
import { invalid } from '../../lib/problem.ts';
import { isPublicAddress, privateHostAllowed, type PrivateTargets } from '../../lib/safe-http.ts';
import { normalizeDomain } from '../sites/domain.ts';

/** How long creating an endpoint waits for its host's DNS answer before taking the URL as it is (delivery checks again). */
const LOOKUP_MS = 2000;

async function resolvesPrivate(hostname: string): Promise<boolean> {
  const lookup = dns.lookup(hostname, { all: true }).then((answers) => answers.some((a) => !isPublicAddress(a.address)), () => false);
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), LOOKUP_MS).unref());
  return Promise.race([lookup, timeout]);
}

/**
 * A webhook URL the service may POST to: https on a public host (http, local names and private
 * addresses only where the configuration allows private targets), no credentials, no fragment.
 * The delivery's connection is guarded again (the name may resolve elsewhere by then).
 */
export async function checkWebhookUrl(input: string, allowPrivate: PrivateTargets): Promise<string> {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw invalid('/url', 'is not a valid URL');
  }
  const privateOk = privateHostAllowed(allowPrivate, url.host);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && privateOk)) throw invalid('/url', 'must be an https URL');
  if (url.username || url.password) throw invalid('/url', 'must not contain a user name or password (the signature authenticates the service)');
  url.hash = '';
  if (privateOk) return url.href;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    if (!isPublicAddress(host)) throw invalid('/url', 'must not point to a private or reserved address');
    return url.href;
  }
  const domain = normalizeDomain(host, false);
  if (!domain.ok) throw invalid('/url', `host ${domain.reason}`);
  if (await resolvesPrivate(host)) throw invalid('/url', 'must not point to a private or reserved address');
  return url.href;
}
