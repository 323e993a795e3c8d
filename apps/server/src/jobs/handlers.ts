import type { MailService } from '../features/mail/mail.service.ts';
import type { JobHandlers } from './jobs.ts';

/** The one list of job handlers; the type makes a job without a handler a compile error. */
export function createJobHandlers(deps: { mail: MailService }): JobHandlers {
  return {
    'mail.send': (payload, run) => deps.mail.deliver(payload.emailId, run),
  };
}
