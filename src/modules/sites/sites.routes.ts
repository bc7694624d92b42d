import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  CreateSiteBody,
  ListSitesQuery,
  SiteCreatedSchema,
  SiteListSchema,
  SiteParams,
  SiteSchema,
  UpdateSiteBody,
} from './sites.schemas.ts';
import type { SitesService } from './sites.service.ts';

export async function sitesRoutes(app: FastifyInstance, deps: { sites: SitesService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { sites } = deps;
  const tags = ['sites'];

  r.get(
    '/sites',
    { schema: { tags, operationId: 'listSites', summary: "The caller's sites", querystring: ListSitesQuery, response: { 200: SiteListSchema } } },
    (request) => sites.listSites(request.actor.sub, { isActive: request.query.is_active }),
  );

  r.post(
    '/sites',
    { schema: { tags, operationId: 'createSite', summary: 'Add a site', body: CreateSiteBody, response: { 201: SiteCreatedSchema } } },
    async (request, reply) => reply.code(201).send(await sites.createSite(request.actor.sub, request.body)),
  );

  r.get(
    '/sites/:site_id',
    { schema: { tags, operationId: 'getSite', summary: 'One site', params: SiteParams, response: { 200: SiteSchema } } },
    (request) => sites.getSite(request.actor.sub, request.params.site_id),
  );

  r.put(
    '/sites/:site_id',
    {
      schema: {
        tags,
        operationId: 'updateSite', summary: 'Change a site (any of name, domain, platform, is_active)',
        params: SiteParams,
        body: UpdateSiteBody,
        response: { 200: SiteSchema },
      },
    },
    (request) => sites.updateSite(request.actor.sub, request.params.site_id, request.body),
  );

}
