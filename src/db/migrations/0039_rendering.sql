-- JavaScript rendering (crawler/render-rules.ts). A site's setting: auto (render the pages whose raw HTML
-- is a script's shell, and the home page once to compare), always, or never (raw HTML only).
alter table sites add column rendering text not null default 'auto'
  check (rendering in ('auto', 'always', 'never'));

-- How an audit rendered (crawl.types.ts RenderingSummary): null for audits run before it was recorded.
alter table audits add column rendering jsonb;

-- A rendered page, raw against rendered (render-compare.ts PageRendering); null for pages read as raw HTML.
alter table audit_pages add column rendering jsonb;
