import type { Mail, MailAttachment } from '../notifications/mailer.ts';
import { count, dayRange, percentChange, position } from './format.ts';
import type { Report } from './reports.schemas.ts';

/** A change of average position in words (negative is better): "0.7 places better". */
const placesMoved = (difference: number) => {
  const places = Math.abs(Math.round(difference * 10) / 10);
  return places === 0 ? 'unchanged' : `${places} place${places === 1 ? '' : 's'} ${difference < 0 ? 'better' : 'worse'}`;
};

/**
 * A scheduled report to one recipient: the headline figures in plain text (no markup to inject through a query or a
 * title) and the whole report attached. The recipient may have no account, so the message names who set it up and whom
 * to ask to stop it rather than linking into the app.
 */
export function reportMail(input: { to: string; report: Report; sender: string; frequency: 'weekly' | 'monthly'; attachment: MailAttachment }): Mail {
  const { report } = input;
  const agency = report.workspace.personal ? input.sender : report.workspace.name;
  const { current, change } = report.traffic;
  const lines = [
    `The ${input.frequency} search report for ${report.site.name} (${report.site.domain}), ${dayRange(report.period)}.`,
    '',
  ];
  if (report.traffic.has_data) {
    const vs = report.comparison.mode === 'year' ? 'the same dates a year before' : 'the period before';
    lines.push(
      `Clicks: ${count(current.clicks)}${change ? ` (${percentChange(change.clicks)} against ${vs})` : ''}`,
      `Impressions: ${count(current.impressions)}${change ? ` (${percentChange(change.impressions)})` : ''}`,
      `Average position: ${position(current.position)}${change?.position != null ? ` (${placesMoved(change.position)})` : ''}`,
    );
  } else {
    lines.push('Search Console has no figures for this period yet.');
  }
  if (report.health.score !== null) {
    lines.push(`Health score: ${report.health.score}/100${report.health.change !== null ? ` (${report.health.change >= 0 ? '+' : ''}${report.health.change} since the audit before)` : ''}`);
  }
  lines.push(`Changes completed: ${report.work_done.completed}; proposals awaiting approval: ${report.proposals.awaiting_approval}`);
  lines.push(
    '',
    `The whole report is attached (${input.attachment.filename}).`,
    '',
    '--',
    `Sent by ${agency} with the Site Optimization Service: ${input.sender} scheduled this ${input.frequency} report for ${input.to}.`,
    `To stop it or change who gets it, reply to ${input.sender}.`,
    '',
  );
  return {
    to: input.to,
    subject: `${report.site.name}: search report, ${dayRange(report.period)}`,
    text: lines.join('\n'),
    headers: { 'Reply-To': input.sender },
    attachments: [input.attachment],
  };
}
