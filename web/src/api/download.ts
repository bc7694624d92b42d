import type { paths } from '../generated/api';
import { api, unwrap } from './client.ts';
import { dispositionFileName } from '../lib/file-name.ts';

/** The API's files: its CSV exports and a site's client report (PDF, print page). */
export type ExportPath = { [P in keyof paths]: P extends `${string}/export` | `${string}/report.pdf` | `${string}/report.html` ? P : never }[keyof paths];
type ExportParams<P extends ExportPath> = Pick<paths[P]['get']['parameters'], 'query' | 'path'>;
type BlobGet = (path: string, init: { params: unknown; parseAs: 'blob' }) => Promise<{ data?: Blob; error?: unknown; response: Response }>;

/**
 * Downloads one of the API's exports as the file it names. A link to the API would go without the access token (it
 * lives in the client's memory), so the file is fetched through the API client, as every other call (a 401 renews the
 * token once), read whole and handed to the browser through a temporary object URL. A refusal throws the ApiError
 * with the problem's detail (and Retry-After of a 429). Returns the file's name.
 */
export async function downloadFile<P extends ExportPath>(path: P, params: ExportParams<P>): Promise<string> {
  const { blob, name } = await fetchFile(path, params);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // The browser reads the blob after the click returns: the URL goes once it has had the time to.
    setTimeout(() => URL.revokeObjectURL(url), 30_000);
  }
  return name;
}

/** A file of the API, read whole through the API client (its token, its one renewal on a 401), with the name it gives. */
export async function fetchFile<P extends ExportPath>(path: P, params: ExportParams<P>): Promise<{ blob: Blob; name: string }> {
  const result = await (api.GET as unknown as BlobGet)(path, { params, parseAs: 'blob' });
  return { blob: unwrap(result), name: dispositionFileName(result.response.headers.get('content-disposition')) };
}

/**
 * Opens an HTML file of the API (the client report's print page) in a new tab, from a blob: the page carries its own
 * Content-Security-Policy (no script, nothing fetched), since a blob has no headers. The tab is opened before the
 * fetch, while the click still allows it, and closed again when the fetch fails.
 */
export async function openHtml<P extends ExportPath>(path: P, params: ExportParams<P>): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { blob } = await fetchFile(path, params);
    const url = URL.createObjectURL(new Blob([blob], { type: 'text/html' }));
    if (tab) tab.location.href = url;
    else window.location.assign(url);
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    tab?.close();
    throw error;
  }
}
