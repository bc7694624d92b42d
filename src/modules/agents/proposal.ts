import type { TaskCategory, TaskPriority } from '../../db/types.ts';
import { CHECKS_BY_ID } from '../checks/catalogue.ts';
import { TASK_CATEGORIES } from '../task-types/index.ts';

/** A task as the strategy agent proposes it, before its quality gates. */
export interface Proposal {
  type: TaskType;
  category: TaskCategory;
  priority: TaskPriority;
  title: string;
  description: string;
  /** What the task acts on (a URL, or the site's sitemap): with type, what makes two proposals the same. */
  target: string;
  configuration: Record<string, unknown>;
  evidence: Array<Record<string, unknown>>;
}

/** Every task type the agents propose, with its category (each type's file under task-types/ says it). */
export const TASK_TYPES = TASK_CATEGORIES;
export type TaskType = keyof typeof TASK_TYPES;

const SEVERITY_PRIORITY: Record<string, TaskPriority> = { critical: 'critical', error: 'high', warning: 'medium', notice: 'low' };
const SEVERITY_RANK = ['critical', 'error', 'warning', 'notice'];

/** The most severe of the checks, first. */
export const bySeverity = (checkIds: string[]) =>
  [...checkIds].sort((a, b) => SEVERITY_RANK.indexOf(CHECKS_BY_ID.get(a)?.severity ?? 'notice') - SEVERITY_RANK.indexOf(CHECKS_BY_ID.get(b)?.severity ?? 'notice'));

/** One step up (low -> medium -> high), never to critical: that stays for what severity alone calls critical. */
export function raised(priority: TaskPriority): TaskPriority {
  return priority === 'low' ? 'medium' : priority === 'medium' ? 'high' : priority;
}

/**
 * Priority from the worst finding's severity, raised one step when the problem spans many
 * pages (10 or more), since its fix then moves the site's score and traffic the most.
 */
export function priorityOf(checkIds: string[], affectedPages = 1): TaskPriority {
  const base = SEVERITY_PRIORITY[CHECKS_BY_ID.get(bySeverity(checkIds)[0] ?? '')?.severity ?? 'notice'] ?? 'low';
  return affectedPages >= 10 ? raised(base) : base;
}
