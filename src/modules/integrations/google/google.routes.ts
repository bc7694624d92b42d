import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../../lib/schema.ts';
import type { AuthService } from '../../auth/auth.service.ts';
import { setSessionCookie } from '../../auth/browser-session.routes.ts';
import { ProblemError } from '../../../lib/problem.ts';
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

const STATE_COOKIE = 'sos_google_state';
const SIGNIN_CALLBACK = '/api/v1/auth/google/callback';
/** The state of a Google connection the web app started, kept by the browser that started it (see the connect route). */
const CONNECT_STATE_COOKIE = 'sos_google_connect_state';
const CONNECT_CALLBACK = '/api/v1/integrations/google/callback';

/**
 * The browser that starts a round trip keeps its state for the callback (only there): Lax, so that it
 * comes back on Google's top-level redirect; ten minutes, as long as the state itself.
 */
function keepState(request: FastifyRequest, reply: FastifyReply, cookie: string, callback: string, authorizationUrl: string) {
  reply.setCookie(cookie, new URL(authorizationUrl).searchParams.get('state') ?? '', {
    path: callback, httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', maxAge: 600,
  });
}

/** A refusal of a round trip the web app started goes back into the app (`to` plus its code); any other is the API's answer. */
function backToApp(request: FastifyRequest, reply: FastifyReply, error: unknown, to: string, what: string) {
  const message = forApp(error);
  if (!message) throw error;
  request.log.info({ err: error }, `${what} refused`);
  return reply.redirect(`${to}${message}`, 303);
}

/** `return=app`: the web app starts the round trip, and its callback answers the browser (a redirect into the app), not JSON. */
const StartQuery = Type.Object({ return: Type.Optional(Type.Literal('app', { description: 'Set by the web app: the callback redirects back into it' })) }, { additionalProperties: false });
const redirectTo = (description: string) => Type.Null({ description, headers: { location: Type.String({ description: 'Where in the web app' }) } });
/**
 * A refusal in a round trip the web app started (see google.service finishing) goes back to
 * the app as a code it words itself: text taken from the address bar could be anyone's
 * (a crafted link would put its own words in the app's error banner).
 */
const FOR_APP: Partial<Record<string, string>> = { forbidden: 'other_browser', bad_request: 'not_granted', bad_gateway: 'google_failed', account_disabled: 'account_disabled' };
const forApp = (error: unknown) =>
  (error instanceof ProblemError && (error as { returnTo?: unknown }).returnTo === 'app' ? FOR_APP[error.code] ?? 'failed' : undefined);

export async function googleRoutes(app: FastifyInstance, deps: { google: GoogleService; auth: Pick<AuthService, 'signInWithGoogle' | 'signInMethods'>; refreshTtlSeconds: number }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['integrations'];
  r.get(
    '/integrations/google/connect',
    { schema: { tags, operationId: 'startGoogleConnect', summary: 'Start connecting Google (Search Console, GA4): the URL to send the browser to', querystring: StartQuery, response: { 200: Type.Object({ authorization_url: Type.String() }) } } },
    async (request, reply) => {
      const started = await deps.google.connectStart(request.actor.sub, request.query.return === 'app' ? 'app' : null);
      // The browser that starts a connection keeps its state, so a consent link sent to someone else
      // cannot tie their Google data to this account (OAuth CSRF), whoever asked for the link. The app's
      // fetch is same-origin, so the browser stores the cookie.
      // An API client opens the consent URL in a browser that has this cookie (the one its own request got).
      keepState(request, reply, CONNECT_STATE_COOKIE, CONNECT_CALLBACK, started.authorization_url);
      return started;
    },
  );
  r.get(
    '/integrations/google/callback',
    {
      config: { public: true },
      schema: { tags, operationId: 'completeGoogleConnect', summary: "Google's redirect after consent (state and PKCE checked, tokens stored sealed); started by the web app, back to its settings", querystring: CallbackQuery,
        response: { 200: Type.Object({ connected: Type.Boolean(), scopes: Type.Array(Type.String()), missing_scopes: Type.Array(Type.String()) }), 303: redirectTo('Back to the web app\'s settings (google=connected, or google_error=other_browser|not_granted|google_failed|failed)') } },
    },
    async (request, reply) => {
      try {
        const result = await deps.google.connectCallback(request.query, { state: request.cookies[CONNECT_STATE_COOKIE] });
        reply.clearCookie(CONNECT_STATE_COOKIE, { path: CONNECT_CALLBACK });
        if (result.returnTo === 'app') return reply.redirect(`/settings?google=connected${result.missing_scopes.length ? `&missing=${encodeURIComponent(result.missing_scopes.join(' '))}` : ''}`, 303);
        return { connected: result.connected, scopes: result.scopes, missing_scopes: result.missing_scopes };
      } catch (error) {
        return backToApp(request, reply, error, '/settings?google_error=', 'Google connection');
      }
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
    { config: { public: true }, schema: { tags: ['auth'], operationId: 'startGoogleSignIn', summary: 'Start Google sign-in: 302 to Google with state, nonce and PKCE', querystring: StartQuery,
      response: { 302: Type.Null({ description: "Redirect to Google's consent screen", headers: { location: Type.String({ format: 'uri', description: "Google's authorization URL" }) } }) } } },
    async (request, reply) => {
      const url = await deps.google.signinStart(request.query.return === 'app' ? 'app' : null);
      // The browser that starts an app sign-in keeps its state, so only it can finish it (login CSRF).
      if (request.query.return === 'app') keepState(request, reply, STATE_COOKIE, SIGNIN_CALLBACK, url);
      return reply.redirect(url, 302);
    },
  );
  r.get(
    '/auth/google/callback',
    { config: { public: true }, schema: { tags: ['auth'], operationId: 'completeGoogleSignIn', summary: "Google's redirect after sign-in: the id_token is verified, the user found or created, and this service's tokens issued; started by the web app, its session cookie set and back into it", querystring: CallbackQuery,
      response: { 200: TokenPairSchema, 303: redirectTo('Into the web app, signed in (the session cookie set), or back to its sign-in page with signin_error=other_browser|not_granted|google_failed|failed') } } },
    async (request, reply) => {
      try {
        const { tokens, returnTo } = await deps.auth.signInWithGoogle(request.query, { state: request.cookies[STATE_COOKIE] });
        reply.clearCookie(STATE_COOKIE, { path: SIGNIN_CALLBACK });
        if (returnTo !== 'app') return tokens;
        // The web app's session: the refresh token in its cookie; the app takes an access token from it on load.
        setSessionCookie(request, reply, tokens.refresh_token, deps.refreshTtlSeconds);
        reply.header('cache-control', 'no-store');
        return reply.redirect('/', 303);
      } catch (error) {
        return backToApp(request, reply, error, '/?signin_error=', 'Google sign-in');
      }
    },
  );
  r.get(
    '/auth/methods',
    { config: { public: true }, schema: { tags: ['auth'], operationId: 'listSignInMethods', summary: 'How one can sign in on this server (the Google button shows only when Google is set up)',
      response: { 200: Type.Object({ password: Type.Boolean(), google: Type.Boolean() }) } } },
    () => deps.auth.signInMethods(),
  );
}
