import type { SearchDataRepo } from './search-data.repo.ts';

/**
 * The search-data module as other modules use it (the sync writes, the agents and tasks
 * read); its repository stays its own.
 */
export function createSearchDataService(repo: SearchDataRepo) {
  return {
    upsertSearchDays: repo.upsertSearchDays,
    replaceQueryDays: repo.replaceQueryDays,
    stageQueryRows: repo.stageQueryRows,
    promoteStagedQueryRows: repo.promoteStagedQueryRows,
    discardStagedQueryRows: repo.discardStagedQueryRows,
    replaceSegmentDays: repo.replaceSegmentDays,
    hasSegments: repo.hasSegments,
    upsertAnalyticsDays: repo.upsertAnalyticsDays,
    refreshKeywords: repo.refreshKeywords,
    pageMetrics: repo.pageMetrics,
    pagePerformance: repo.pagePerformance,
    splitQueries: repo.splitQueries,
    ctrByPosition: repo.ctrByPosition,
    impactAround: repo.impactAround,
  };
}

export type SearchDataService = ReturnType<typeof createSearchDataService>;
