import type { paths } from '../generated/api';
import { api, unwrap } from './client.ts';
import { dispositionFileName } from '../lib/file-name.ts';

/** The API's CSV exports. */
export type ExportPath = { [P in keyof paths]: P extends `${string}/export` ? P : never }[keyof paths];
type ExportParams<P extends ExportPath> = Pick<paths[P]['get']['parameters'], 'query' | 'path'>;
type BlobGet = (path: string, init: { params: unknown; parseAs: 'blob' }) => Promise<{ data?: Blob; error?: unknown; response: Response }>;

/**
 * Downloads one of the API's exports as the file it names. A link to the API would go without the access token (it
 * lives in the client's memory), so the file is fetched through the API client, as every other call (a 401 renews the
 * token once), read whole and handed to the browser through a temporary object URL. A refusal throws the ApiError
 * with the problem's detail (and Retry-After of a 429). Returns the file's name.
 */
export async function downloadFile<P extends ExportPath>(path: P, params: ExportParams<P>): Promise<string> {
  const result = await (api.GET as unknown as BlobGet)(path, { params, parseAs: 'blob' });
  const blob = unwrap(result);
  const name = dispositionFileName(result.response.headers.get('content-disposition'));
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
