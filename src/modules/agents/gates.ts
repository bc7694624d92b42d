import { configurationFailure } from '../task-types/index.ts';
import type { Proposal } from './proposal.ts';

/**
 * The quality gates every proposal passes before it becomes a task: evidence, a
 * configuration that matches its type's schema, and the type's own gate (a proposed value
 * that passes the very check that flagged the problem, a defined change or deliverable;
 * each type's file under task-types/ says which). Freshness is checked per run; duplicates
 * by the open-task index; the uniqueness of drafted values by the writers.
 */
export function gateFailure(proposal: Proposal): string | undefined {
  if (proposal.evidence.length === 0) return 'no evidence';
  return configurationFailure(proposal.type, proposal.configuration);
}
