import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../../lib/schema.ts';
import type { AuthService } from '../../auth/auth.service.ts';
import { TokenPairSchema } from '../../auth/auth.schemas.ts';
import type { GoogleService } from './google.service.ts';

export const PropertiesSchema = Type.Object({
  items: Type.Array(Type.Object({ site_url: Type.String(), permission_level: Type.String() })),
  total: Type.Integer(),
});
const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 2048 })),
  state: Type.Optional(Type.String({ maxLength: 256 })),
  error: Type.Optional(Type.String({ maxLength: 256 })),
  scope: Type.Optional(Type.String({ maxLength: 4096 })),
  authuser: Type.Optional(Type.String()),
  prompt: Type.Optional(Type.String()),
  hd: Type.Optional(Type.String()),
});
const StatusSchema = Type.Object({
  connected: Type.Boolean(),
  status: Type.String({ description: 'active, revoked (connect again) or not_connected' }),
  email: Nullable(Type.String()),
  scopes: Type.Array(Type.String()),
  connected_at: Nullable(Timestamp()),
});

export async function googleRoutes(app: FastifyInstance, deps: { google: GoogleService; auth: Pick<AuthService, 'signInWithGoogle'> }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['integrations'];
  r.get(
    '/integrations/google/connect',
    { schema: { tags, operationId: 'startGoogleConnect', summary: 'Start connecting Google (Search Console, GA4): the URL to send the browser to', response: { 200: Type.Object({ authorization_url: Type.String() }) } } },
    (request) => deps.google.connectStart(request.actor.sub),
  );
  r.get(
    '/integrations/google/callback',
    {
      config: { public: true },
      schema: { tags, operationId: 'completeGoogleConnect', summary: "Google's redirect after consent (state and PKCE checked, tokens stored sealed)", querystring: CallbackQuery, response: { 200: Type.Object({ connected: Type.Boolean(), scopes: Type.Array(Type.String()), missing_scopes: Type.Array(Type.String()) }) } },
    },
    async (request) => {
      const result = await deps.google.connectCallback(request.query);
      return { connected: result.connected, scopes: result.scopes, missing_scopes: result.missing_scopes };
    },
  );
  r.get('/integrations/google', { schema: { tags, operationId: 'getGoogleConnection', summary: 'Whether Google is connected, as whom, with which scopes', response: { 200: StatusSchema } } },
    (request) => deps.google.status(request.actor.sub));
  r.delete('/integrations/google', { schema: { tags, operationId: 'disconnectGoogle', summary: 'Disconnect Google: the grant is revoked at Google and forgotten', response: { 204: Type.Null({ description: 'Disconnected' }) } } }, async (request, reply) => {
    await deps.google.disconnect(request.actor.sub);
    return reply.code(204).send(null);
  });
  r.get(
    '/integrations/google/search-console/properties',
    { schema: { tags, operationId: 'listSearchConsoleProperties', summary: 'Your Search Console properties (409 when Google is not connected)', response: { 200: PropertiesSchema } } },
    (request) => deps.google.properties(request.actor.sub),
  );
  r.get(
    '/auth/google/start',
    { config: { public: true }, schema: { tags: ['auth'], operationId: 'startGoogleSignIn', summary: 'Start Google sign-in: 302 to Google with state, nonce and PKCE',
      response: { 302: Type.Null({ description: "Redirect to Google's consent screen", headers: { location: Type.String({ format: 'uri', description: "Google's authorization URL" }) } }) } } },
    async (_request, reply) => reply.redirect(await deps.google.signinStart(), 302),
  );
  r.get(
    '/auth/google/callback',
    { config: { public: true }, schema: { tags: ['auth'], operationId: 'completeGoogleSignIn', summary: "Google's redirect after sign-in: the id_token is verified, the user found or created, and this service's tokens issued", querystring: CallbackQuery, response: { 200: TokenPairSchema } } },
    (request) => deps.auth.signInWithGoogle(request.query),
  );
}
