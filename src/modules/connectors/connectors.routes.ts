import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ConnectorParams, ConnectorSchema, PutConnectorBody } from './connectors.schemas.ts';
import type { ConnectorsService } from './connectors.service.ts';

export async function connectorsRoutes(app: FastifyInstance, deps: { connectors: ConnectorsService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['sites'];

  r.get(
    '/sites/:site_id/connector',
    { schema: { tags, operationId: 'getConnector', summary: 'How tasks are carried out on the site (manual unless configured)', params: ConnectorParams, response: { 200: ConnectorSchema } } },
    (request) => deps.connectors.get(request.actor.sub, request.params.site_id),
  );

  r.put(
    '/sites/:site_id/connector',
    {
      schema: {
        tags,
        operationId: 'saveConnector', summary: 'Configure the site connector; WordPress credentials are checked against the site, then stored sealed',
        params: ConnectorParams,
        body: PutConnectorBody,
        response: { 200: ConnectorSchema },
      },
    },
    (request) => deps.connectors.put(request.actor.sub, request.params.site_id, request.body),
  );
}
