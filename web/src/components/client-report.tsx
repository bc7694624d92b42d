import { useState } from 'preact/hooks';
import { downloadFile, openHtml } from '../api/download.ts';
import { ErrorNotice } from './ui.tsx';
import { useExport } from './export-button.tsx';
import { ReportSchedule } from './report-schedule.tsx';
import '../styles/client-report.css';

const PERIODS = [['28d', 'Last 28 days'], ['3m', 'Last 3 months'], ['6m', 'Last 6 months'], ['12m', 'Last 12 months']] as const;
type Period = (typeof PERIODS)[number][0];

/**
 * A site's client report: traffic against the period before, top movers, keywords gained and lost, health, problems,
 * work done and proposals waiting, as a PDF the service renders or a print page any browser saves as PDF.
 */
export function ClientReport({ siteId, canManage }: { siteId: string; canManage: boolean }) {
  const [period, setPeriod] = useState<Period>('28d');
  const params = { path: { site_id: siteId }, query: { period } };
  const pdf = useExport(() => downloadFile('/api/v1/sites/{site_id}/report.pdf', params));
  const print = useExport(() => openHtml('/api/v1/sites/{site_id}/report.html', params));
  return (
    <section class="card client-report" aria-labelledby="client-report-title">
      <div class="client-report-row">
        <div>
          <h2 id="client-report-title">Client report</h2>
          <p class="small muted">Traffic, movers, keywords, health, work done and proposals waiting, on one A4 page with your workspace's name.</p>
        </div>
        <div class="client-report-actions">
          <label class="small">Period
            <select value={period} onChange={(e) => setPeriod((e.currentTarget as HTMLSelectElement).value as Period)}>
              {PERIODS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
            </select>
          </label>
          <button type="button" class="btn btn-small" aria-disabled={print.busy || undefined} onClick={() => void print.start()}>{print.busy ? 'Opening…' : 'Print view'}</button>
          <button type="button" class="btn btn-small" aria-disabled={pdf.busy || undefined} onClick={() => void pdf.start()}>
            <span aria-live="polite">{pdf.busy ? 'Rendering…' : 'Download PDF'}</span>
          </button>
        </div>
      </div>
      {(pdf.error ?? print.error) !== undefined && <ErrorNotice error={pdf.error ?? print.error} />}
      <ReportSchedule siteId={siteId} canManage={canManage} />
    </section>
  );
}
