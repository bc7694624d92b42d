-- What each known search and AI crawler may fetch under the site's robots.txt, and the site's
-- /llms.txt as the audit found it (crawler/ai-access.ts AiAccess). One document an audit, read
-- whole by GET /audits/{id}/ai-access; null for audits run before it was recorded.
alter table audits add column ai_access jsonb;
