import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notImplemented } from '../../../lib/problem.ts';

export const PropertiesSchema = Type.Object({
  items: Type.Array(Type.Object({ site_url: Type.String(), permission_level: Type.String() })),
  total: Type.Integer(),
});

// Google sign-in and the Search Console connection are the search-data issue: until then 501.
const pending = async () => {
  throw notImplemented('Google integration');
};

export async function googleRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get('/integrations/google/search-console/properties', { schema: { tags: ['integrations'], summary: 'Your Search Console properties', response: { 200: PropertiesSchema } } }, pending);
  r.get('/auth/google/start', { config: { public: true }, schema: { tags: ['auth'], summary: 'Start Google sign-in (redirect)' } }, pending);
  r.get('/auth/google/callback', { config: { public: true }, schema: { tags: ['auth'], summary: 'Google sign-in callback' } }, pending);
}
