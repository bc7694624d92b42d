-- Core Web Vitals of an audit (page-speed/measure.ts PageSpeedReport): Lighthouse on one page per template (lab),
-- and the Chrome UX Report's p75 for the origin and those pages (field). Null for audits run before it was
-- recorded, and when the lab is turned off (PAGE_SPEED_PAGES=0) without a CrUX key.
alter table audits add column page_speed jsonb;
