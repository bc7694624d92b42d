-- Where a Google round trip started: 'app' when the web app started it, so its callback
-- answers the browser (a session cookie and a redirect into the app) instead of JSON.
alter table oauth_states add column return_to text check (return_to in ('app'));
