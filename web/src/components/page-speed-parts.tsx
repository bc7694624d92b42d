// What the Core Web Vitals card and its page detail share (a module of its own, so the two do not import each other).
import type { paths } from '../generated/api';

export type Report = paths['/api/v1/audits/{audit_id}/page-speed']['get']['responses'][200]['content']['application/json'];
export type SpeedPage = Report['pages'][number];
export type Lab = NonNullable<SpeedPage['lab']>;
export type Field = NonNullable<Report['origin_field']>;
export type Rating = Lab['metrics'][number]['rating'];

export const LAB_LABEL = 'Lab (Lighthouse, mobile)';
export const FIELD_LABEL = 'Field (real users, 28 days)';
const RATING_TEXT = { good: 'good', needs_improvement: 'needs improvement', poor: 'poor' } as const;

/** The rating in words beside its colour, so it reads without colour too. */
export function RatingTag({ rating }: { rating: Rating }) {
  if (!rating) return null;
  return <span class={`cwv-rating cwv-${rating}`}>{RATING_TEXT[rating]}</span>;
}

export const metricOf = (lab: Lab, id: string) => lab.metrics.find((m) => m.id === id);

export const pathOf = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
};
