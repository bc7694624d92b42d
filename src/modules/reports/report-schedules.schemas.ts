import { Type, type Static } from 'typebox';
import { Nullable, StringEnum, Timestamp } from '../../lib/schema.ts';

export const REPORT_FREQUENCIES = ['weekly', 'monthly'] as const;
/** Addresses a schedule may send to: a client's team, not a mailing list. */
export const MAX_RECIPIENTS = 10;

const day = Type.String({ format: 'date' });

export const ReportScheduleInput = Type.Object({
  frequency: StringEnum(REPORT_FREQUENCIES, {
    description: 'weekly: the last whole week (Monday to Sunday), sent on Wednesday; monthly: the last calendar month, sent on the 3rd (Search Console\'s days settle two to three days late)',
  }),
  recipients: Type.Array(Type.String({ format: 'email', maxLength: 320 }), {
    minItems: 1, maxItems: MAX_RECIPIENTS, uniqueItems: true,
    description: 'Who gets the report (anyone: a client needs no account). Each gets the PDF (or, without Chromium on the server, the printable page) attached',
  }),
  compare: Type.Optional(StringEnum(['previous', 'year'] as const, { default: 'previous', description: 'Compared with the period just before, or the same dates a year before' })),
}, { additionalProperties: false });
export type ReportScheduleInputType = Static<typeof ReportScheduleInput>;

const Period = Type.Object({ start: day, end: day });
const LastPeriod = Type.Object({ start: day, end: day }, { description: 'The last period sent (or, for a new schedule, the one before its first)' });

export const ReportScheduleSchema = Type.Object({
  frequency: StringEnum(REPORT_FREQUENCIES),
  recipients: Type.Array(Type.String()),
  compare: StringEnum(['previous', 'year'] as const),
  sender: Type.Object({
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
  }, { description: 'The member who set it: the report is built with their access, and stops once they can no longer see the site' }),
  last_period: Nullable(LastPeriod),
  next_period: Period,
  next_send_on: Type.String({ format: 'date', description: 'The (Pacific) day the next report goes out, once that period\'s days have settled' }),
  last_error: Nullable(Type.String({ description: 'Why the last report due was not sent (null once one is): the member who set it can no longer manage the site, or the mail server refused it on every attempt' })),
  updated_at: Timestamp(),
});
export type ReportScheduleView = Static<typeof ReportScheduleSchema>;

export const ReportSendResult = Type.Object({
  period: Period,
  recipients: Type.Array(Type.String()),
  message: Type.String(),
});
