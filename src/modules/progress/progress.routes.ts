import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { SiteParams } from '../sites/sites.schemas.ts';
import { SiteProgressSchema } from './progress.schemas.ts';
import type { ProgressService } from './progress.service.ts';

/** A site's journey (audits, tasks, score, sync): a read model over the sites, audits and tasks modules. */
export async function progressRoutes(app: FastifyInstance, deps: { progress: ProgressService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/sites/:site_id/progress',
    {
      schema: {
        tags: ['sites'],
        operationId: 'getSiteProgress', summary: "The site's journey: latest audit, task counts, health score then and now, last sync",
        params: SiteParams,
        response: { 200: SiteProgressSchema },
      },
    },
    (request) => deps.progress.getProgress(request.actor.sub, request.params.site_id),
  );
}
