import type { Static } from 'typebox';
import { conflict, notFound } from '../../lib/problem.ts';
import { KNOWN_CRAWLERS } from '../crawler/ai-crawlers.ts';
import type { AiAccess } from '../crawler/crawl.ts';
import { draftLlmsTxt, MAX_DRAFT_LINKS } from '../crawler/llms-txt.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { AiAccessSchema } from './ai-access.schemas.ts';
import type { AuditsRepo } from './audits.repo.ts';
import { AUDIT_TRANSITIONS } from './lifecycle.ts';

const DOCS = new Map(KNOWN_CRAWLERS.map((c) => [c.token, c.docs]));

/** The AI-access report of an audit the caller can read: what each crawler may fetch, llms.txt, and a drafted llms.txt. */
export function createAiAccessReport(deps: { repo: Pick<AuditsRepo, 'findForOwner' | 'aiAccess' | 'draftPages'>; sites: Pick<SitesService, 'getSite'> }) {
  return async (ownerId: string, auditId: string): Promise<Static<typeof AiAccessSchema>> => {
    const audit = await deps.repo.findForOwner(ownerId, auditId);
    if (!audit) throw notFound('Audit');
    if (audit.status !== AUDIT_TRANSITIONS.complete.to) throw conflict(`The audit is ${audit.status}; AI access is reported once it has completed`);
    const stored = (await deps.repo.aiAccess(auditId)) as AiAccess | null;
    if (!stored) throw notFound('AI access report of this audit'); // audits run before it was recorded
    const [site, pages] = await Promise.all([deps.sites.getSite(ownerId, audit.site_id), deps.repo.draftPages(auditId, MAX_DRAFT_LINKS)]);
    const home = pages.find((p) => p.depth === 0);
    return {
      audit_id: auditId,
      robots_status: stored.robots_status,
      crawlers: stored.crawlers.map(({ group: _group, ...crawler }) => ({ ...crawler, docs: DOCS.get(crawler.token) ?? null })),
      llms_txt: stored.llms_txt,
      llms_txt_draft: draftLlmsTxt(
        { name: site.name, summary: home?.meta_description ?? null },
        pages.map((p) => ({ url: p.url, title: p.title!, description: p.meta_description })),
      ),
    };
  };
}
