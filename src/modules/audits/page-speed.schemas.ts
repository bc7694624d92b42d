import { Type } from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../lib/schema.ts';

const Rating = StringEnum(['good', 'needs_improvement', 'poor'] as const, { description: "Google's thresholds: good, needs improvement, or poor" });

const LabMetric = Type.Object({
  id: StringEnum(['lcp', 'cls', 'tbt', 'fcp', 'si', 'ttfb', 'inp'] as const, { description: 'lcp, cls, tbt, fcp, si (Speed Index), ttfb' }),
  value: Type.Number({ description: 'Milliseconds; CLS unitless' }),
  rating: Nullable(Rating),
  display: Type.String({ description: 'The value as people read it: "2.6 s", "180 ms", "0.12"' }),
});

const FieldData = Type.Object({
  scope: StringEnum(['origin', 'url'] as const),
  key: Type.String({ description: 'The origin, or the URL as Google normalised it' }),
  form_factor: Type.String({ description: 'PHONE' }),
  period: Type.Object({ first: Type.String({ format: 'date' }), last: Type.String({ format: 'date' }) }, { description: 'The 28 days the data covers' }),
  metrics: Type.Array(Type.Object({
    id: StringEnum(['lcp', 'inp', 'cls', 'fcp', 'ttfb', 'tbt'] as const),
    p75: Type.Number({ description: '75th percentile of real visits: milliseconds; CLS unitless' }),
    rating: Rating,
    good_share: Type.Number({ minimum: 0, maximum: 1, description: 'Share of visits rated good' }),
    display: Type.String(),
  })),
  passes: Type.Boolean({ description: 'Whether LCP, INP and CLS are all good at p75 (Google\'s Core Web Vitals assessment)' }),
}, { description: "The Chrome UX Report: real Chrome users' visits over 28 days, on phones" });

const LabImage = Type.Object({
  url: Type.String(),
  selector: Nullable(Type.String()),
  bytes: Type.Integer(),
  savings_bytes: Type.Integer({ description: "Lighthouse's estimate of the bytes saved by serving what `serve` says" }),
  natural: Nullable(Type.Object({ width: Type.Integer(), height: Type.Integer() }, { description: 'The file\'s own pixel size' })),
  displayed: Nullable(Type.Object({ width: Type.Integer(), height: Type.Integer() }, { description: 'Its size on the page, CSS pixels on a phone' })),
  reasons: Type.Array(StringEnum(['format', 'size', 'compression', 'offscreen'] as const)),
  serve: Type.String({ description: 'What to serve instead, in words' }),
});

const Lab = Type.Object({
  final_url: Type.String(),
  lighthouse_version: Type.String(),
  measured_at: Type.String({ format: 'date-time' }),
  score: Type.Integer({ minimum: 0, maximum: 100, description: "Lighthouse's performance score (mobile)" }),
  metrics: Type.Array(LabMetric),
  lcp_element: Nullable(Type.Object({
    selector: Type.String(),
    snippet: Type.String(),
    kind: StringEnum(['image', 'text'] as const),
    image_url: Nullable(Type.String()),
    fixes: Type.Array(StringEnum(['remove_lazy_loading', 'preload', 'fetchpriority_high'] as const), { description: 'What its loading gets wrong' }),
    phases: Type.Record(Type.String(), Type.Integer(), { description: 'Where its time went (TTFB, Load Delay, Load Time, Render Delay), ms' }),
  })),
  images: Type.Array(LabImage),
  render_blocking: Type.Array(Type.Object({ url: Type.String(), bytes: Type.Integer(), ms: Type.Integer() })),
  unsized_images: Type.Array(Type.String()),
  opportunities: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), savings_ms: Type.Integer(), savings_bytes: Type.Integer() })),
}, { description: 'Lighthouse on a phone profile (simulated slow 4G, mid-range CPU)' });

export const PageSpeedReportSchema = Type.Object({
  audit_id: Uuid(),
  available: Type.Boolean({ description: 'Whether Lighthouse ran' }),
  unavailable: Nullable(Type.String({ description: 'Why it did not' })),
  measured_ms: Type.Integer({ description: 'How long measuring took' }),
  field_configured: Type.Boolean({ description: 'Whether a Chrome UX Report API key is configured on this server' }),
  field_error: Nullable(Type.String({ description: 'Why field data could not be read (a rejected key, a quota)' })),
  origin_field: Nullable(FieldData),
  refused: Type.Array(Type.String(), { description: 'Requests the measured pages made to private or reserved addresses, refused by the address guard (at most 20)' }),
  pages: Type.Array(Type.Object({
    url: Type.String(),
    template: Type.String({ description: 'The URL pattern of the template it was chosen for: "/", "/blog/*", "/{lang}/products/*"' }),
    pages_in_template: Type.Integer({ description: 'Crawled pages of that template' }),
    lab: Nullable(Lab),
    error: Nullable(Type.String({ description: 'Why Lighthouse could not measure it' })),
    field: Nullable(FieldData),
  }), { description: 'One page per template, the home page first, at most 20' }),
});
