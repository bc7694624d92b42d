import type { Mail } from './mailer.ts';

/** RFC 8058: a mail client offers "unsubscribe" and POSTs to the link itself, no page to visit. */
const unsubscribeHeaders = (link: string) => ({ 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
const footer = (what: string, settings: string, unsubscribe: string) =>
  ['', '--', `You get ${what} as a member of this workspace. Change it on ${settings}`, `or stop it with one click: ${unsubscribe}`, ''];

export interface DigestSite { name: string; domain: string; count: number; titles: string[] }

/** The digest: plain text (no markup to inject through a title), a count and the first titles per site. */
export function digestMail(input: {
  to: string; name: string; workspace: string; frequency: 'daily' | 'weekly'; sites: DigestSite[];
  approvalsLink: string; settingsLink: string; unsubscribeLink: string;
}): Mail {
  const total = input.sites.reduce((n, s) => n + s.count, 0);
  const lines = [`Hello ${input.name},`, '', `${total} proposal${total === 1 ? '' : 's'} await${total === 1 ? 's' : ''} approval in ${input.workspace}:`, ''];
  for (const site of input.sites) {
    lines.push(`${site.name} (${site.domain}): ${site.count}`);
    for (const title of site.titles) lines.push(`  - ${title}`);
    if (site.count > site.titles.length) lines.push(`  and ${site.count - site.titles.length} more`);
    lines.push('');
  }
  lines.push(`Review them: ${input.approvalsLink}`, ...footer(`this ${input.frequency} digest`, input.settingsLink, input.unsubscribeLink));
  return {
    to: input.to,
    subject: `${total} proposal${total === 1 ? '' : 's'} awaiting approval in ${input.workspace}`,
    text: lines.join('\n'),
    headers: unsubscribeHeaders(input.unsubscribeLink),
  };
}

export type Alert =
  | { kind: 'critical'; issues: Array<{ title: string; url: string }>; total: number }
  | { kind: 'unreachable'; error: string };

/** An alert about one site: new critical issues in its latest audit, or the site no longer answering. */
export function alertMail(input: {
  to: string; name: string; workspace: string; site: { name: string; domain: string }; alert: Alert;
  siteLink: string; settingsLink: string; unsubscribeLink: string;
}): Mail {
  const { site, alert } = input;
  const lines = [`Hello ${input.name},`, ''];
  let subject: string;
  if (alert.kind === 'critical') {
    subject = `${site.name}: ${alert.total} new critical issue${alert.total === 1 ? '' : 's'}`;
    lines.push(`The latest audit of ${site.name} (${site.domain}) found ${alert.total} critical issue${alert.total === 1 ? '' : 's'} the audit before did not:`, '');
    for (const issue of alert.issues) lines.push(`  - ${issue.title}: ${issue.url}`);
    if (alert.total > alert.issues.length) lines.push(`  and ${alert.total - alert.issues.length} more`);
  } else {
    subject = `${site.name} could not be reached`;
    lines.push(`The latest audit of ${site.name} (${site.domain}) could not reach the site:`, '', `  ${alert.error}`);
  }
  lines.push('', `Open the site: ${input.siteLink}`, ...footer(`alerts about ${input.workspace}'s sites`, input.settingsLink, input.unsubscribeLink));
  return { to: input.to, subject, text: lines.join('\n'), headers: unsubscribeHeaders(input.unsubscribeLink) };
}

/**
 * To a workspace's owners and admins when the service disabled one of its webhook endpoints: why, and how to
 * enable it again. A service message about their own settings, like a reset link: no unsubscribe.
 */
export function webhookDisabledMail(input: {
  to: string; name: string; workspace: string; url: string; description: string; reason: string; webhooksLink: string;
}): Mail {
  // Its origin only: a receiver's address often holds its own secret in the path or query (Slack's, Zapier's), and e-mail is
  // read in more places than the app.
  const origin = URL.canParse(input.url) ? new URL(input.url).origin : 'an endpoint';
  const what = input.description ? `at ${origin} (${input.description})` : `at ${origin}`;
  return {
    to: input.to,
    subject: `A webhook of ${input.workspace} was disabled`,
    text: [
      `Hello ${input.name},`, '',
      `The webhook endpoint ${what} of ${input.workspace} no longer receives events:`, '', `  ${input.reason}`, '',
      'Events that happen while it is disabled are not sent to it. Once the receiver works again, enable it on',
      `${input.webhooksLink} (Webhooks, Enable) or with PATCH {"enabled": true}, and send a test event.`, '',
      '--', `You get this as an owner or admin of ${input.workspace}.`, '',
    ].join('\n'),
  };
}
