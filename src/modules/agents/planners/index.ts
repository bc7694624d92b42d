import { contentPlanner } from './content.ts';
import { headingsAndImagesPlanner } from './headings-images.ts';
import { indexingPlanner } from './indexing.ts';
import { linksPlanner } from './links.ts';
import { metaPlanner } from './meta.ts';
import type { Planner } from './planner.ts';

/** In order of what matters most when the per-run read budget runs out: indexing first. */
export const PLANNERS: readonly Planner[] = [indexingPlanner, metaPlanner, linksPlanner, headingsAndImagesPlanner, contentPlanner];
