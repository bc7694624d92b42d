import type { FastifyBaseLogger } from 'fastify';
import { invalid, ProblemError } from '../../lib/problem.ts';
import { createOutboundAgent, type PrivateTargets } from '../../lib/safe-http.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { SiteConnector } from './connector.types.ts';
import { manualConnector } from './manual/manual-connector.ts';
import type { ConnectorsRepo, StoredConnector } from './connectors.repo.ts';
import type { PutConnectorInput } from './connectors.schemas.ts';
import { createWordPressClient, WordPressError } from './wordpress/wp-client.ts';
import { createWordPressConnector, type WordPressSettings } from './wordpress/wp-connector.ts';

/** Namespaces in the REST index that tell which SEO plugin a site runs. */
const SEO_NAMESPACES: Record<string, string> = { 'yoast/v1': 'yoast', 'seopress/v1': 'seopress', 'rankmath/v1': 'rank_math', 'aioseo/v1': 'aioseo' };

interface Deps {
  repo: ConnectorsRepo;
  sites: Pick<SitesService, 'getSite'>;
  secrets: SecretBox;
  allowPrivateTargets: PrivateTargets;
  log: FastifyBaseLogger;
}

type WordPressStored = WordPressSettings & { seo_plugins?: string[] };

/** A site's WordPress connection is reused this long: discovery and keep-alive connections survive between tasks. */
const REUSE_MS = 60_000;

export function createConnectorsService(deps: Deps) {
  const { repo, secrets } = deps;
  const live = new Map<string, { connector: SiteConnector; version: number; until: number }>();
  /** Drops a reused connection; tasks still using it get a grace period before it closes. */
  const forget = async (siteId: string, graceMs = REUSE_MS) => {
    const entry = live.get(siteId);
    live.delete(siteId);
    if (!entry) return;
    if (graceMs === 0) return entry.connector.close();
    setTimeout(() => void entry.connector.close(), graceMs).unref();
  };

  function wordpressFor(siteId: string, settings: WordPressSettings, password: string): SiteConnector & { client: ReturnType<typeof createWordPressClient> } {
    const agent = createOutboundAgent({ allowPrivate: deps.allowPrivateTargets, connectionsPerOrigin: 4, timeoutMs: 20_000 });
    const client = createWordPressClient({ baseUrl: settings.base_url, username: settings.username, applicationPassword: password, agent, allowPrivate: deps.allowPrivateTargets });
    return { ...createWordPressConnector({ client, settings, close: () => agent.close() }), client };
  }

  const view = (siteId: string, stored: StoredConnector | undefined) => {
    const settings = (stored?.settings ?? {}) as Partial<WordPressStored>;
    return {
      site_id: siteId,
      type: stored?.type ?? ('manual' as const),
      base_url: settings.base_url ?? null,
      username: settings.username ?? null,
      meta_description_field: settings.meta_description_field ?? null,
      has_credentials: Boolean(stored?.secret),
      seo_plugins: settings.seo_plugins ?? [],
      verified_at: stored?.verified_at ?? null,
      updated_at: stored?.updated_at ?? null,
    };
  };

  /** Proves the credentials against WordPress before anything is stored; returns the SEO plugins found. */
  async function check(siteId: string, settings: WordPressSettings, password: string): Promise<string[]> {
    const connector = wordpressFor(siteId, settings, password);
    try {
      const me = await connector.client.me();
      if (me.capabilities && me.capabilities.edit_posts === false) {
        throw invalid('username', `the WordPress user ${settings.username} cannot edit posts`);
      }
      const index = await connector.client.index();
      return (index.namespaces ?? []).flatMap((ns) => (SEO_NAMESPACES[ns] ? [SEO_NAMESPACES[ns]!] : []));
    } catch (error) {
      if (!(error instanceof WordPressError)) throw error;
      if (error.status === 401 || error.status === 403) {
        throw invalid('application_password', `WordPress refused the user name or application password (${error.wpCode ?? error.status}): ${error.message}`);
      }
      throw invalid('base_url', `the WordPress REST API at ${settings.base_url} could not be used: ${error.message}`);
    } finally {
      await connector.close();
    }
  }

  return {
    async get(ownerId: string, siteId: string) {
      await deps.sites.getSite(ownerId, siteId);
      return view(siteId, await repo.find(siteId));
    },

    async put(ownerId: string, siteId: string, input: PutConnectorInput) {
      const site = await deps.sites.getSite(ownerId, siteId, 'admin');
      if (input.type === 'manual') {
        const saved = await repo.save(siteId, { type: 'manual', settings: {}, secret: null, verifiedAt: null });
        await forget(siteId);
        return view(siteId, saved);
      }
      const current = await repo.find(siteId);
      const previous = current?.type === 'wordpress' ? (current.settings as unknown as WordPressStored) : undefined;
      const username = input.username ?? previous?.username;
      if (!username) throw invalid('username', 'is required for a WordPress connector');
      let password = input.application_password;
      // (Only for the same address too: the stored password is sent to the base URL, and an admin other than the member who
      // entered it must not point it elsewhere.)
      const sameAddress = input.base_url === undefined || input.base_url === previous?.base_url;
      if (password === undefined && current?.secret && previous?.username === username && sameAddress) {
        try {
          password = secrets.open(current.secret, siteId);
        } catch {
          throw invalid('application_password', 'the stored one cannot be read (the server\'s encryption key has changed): send it again');
        }
      }
      if (password === undefined && current?.secret && !sameAddress) throw invalid('application_password', 'send it again for a new address: the stored one is only sent where it was entered for');
      if (password === undefined) throw invalid('application_password', 'is required for a WordPress connector');
      const baseUrl = input.base_url ?? previous?.base_url ?? `https://${site.domain}/`;
      const parsed = new URL(baseUrl);
      if (!/^https?:$/.test(parsed.protocol)) throw invalid('base_url', 'must be an http or https URL');
      // Credentials in the URL would be stored in the clear, returned and logged.
      if (parsed.username || parsed.password) throw invalid('base_url', 'must not contain a user name or password: send them as username and application_password');
      const settings: WordPressSettings = {
        base_url: baseUrl, username,
        ...(input.meta_description_field ?? previous?.meta_description_field ? { meta_description_field: input.meta_description_field ?? previous?.meta_description_field } : {}),
      };
      const seoPlugins = await check(siteId, settings, password);
      const saved = await repo.save(siteId, {
        type: 'wordpress', settings: { ...settings, seo_plugins: seoPlugins }, secret: secrets.seal(password, siteId), verifiedAt: new Date(),
      });
      await forget(siteId);
      deps.log.info({ siteId, type: 'wordpress', baseUrl }, 'site connector saved');
      return view(siteId, saved);
    },

    /**
     * For the worker: the connector that carries this site's tasks out (the manual one unless
     * another is configured). Throws when the stored credential cannot be opened (SECRETS_KEY changed).
     */
    async forSite(siteId: string): Promise<SiteConnector> {
      const stored = await repo.find(siteId);
      if (stored?.type !== 'wordpress' || !stored.secret) {
        if (live.has(siteId)) await forget(siteId);
        return manualConnector;
      }
      // Reused while fresh and unchanged (another instance may have saved new settings).
      const version = stored.updated_at.getTime();
      const cached = live.get(siteId);
      if (cached && cached.version === version && cached.until > Date.now()) return { ...cached.connector, close: async () => {} };
      if (cached) await forget(siteId);
      let password: string;
      try {
        password = secrets.open(stored.secret, siteId);
      } catch {
        throw new ProblemError('conflict', 'The stored WordPress credential cannot be read (the server\'s encryption key may have changed): save the connector again.');
      }
      const connector = wordpressFor(siteId, stored.settings as unknown as WordPressSettings, password);
      live.set(siteId, { connector, version, until: Date.now() + REUSE_MS });
      return { ...connector, close: async () => {} };
    },

    /** Closes every reused connection (the app is shutting down). */
    async closeAll() {
      await Promise.all([...live.keys()].map((siteId) => forget(siteId, 0)));
    },
  };
}

export type ConnectorsService = ReturnType<typeof createConnectorsService>;
