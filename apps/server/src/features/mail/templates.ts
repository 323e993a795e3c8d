import { emailTranslator } from './translate.ts';

export type RenderedMail = { subject: string; text: string; html: string };

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A message with one call to action: plain text for every client, and a simple HTML part. */
export function renderActionMail(options: {
  language: string;
  kind: 'verify' | 'alreadyRegistered' | 'reset' | 'invite' | 'inviteExisting' | 'unlock';
  name: string;
  link: string;
  params?: Record<string, string>;
}): RenderedMail {
  const t = emailTranslator(options.language);
  const k = options.kind;
  const params = options.params ?? {};
  const subject = t(`${k}.subject`, params);
  const greeting = t('common.greeting', { name: options.name });
  const body = t(`${k}.body`, params);
  const action = t(`${k}.action`, params);
  // Notices without a one-time link say nothing about expiry.
  const expiry = k === 'alreadyRegistered' || k === 'inviteExisting' ? '' : t(`${k}.expiry`, params);
  const text = [
    greeting,
    '',
    body,
    '',
    `${action}: ${options.link}`,
    '',
    expiry,
    t('common.ignore'),
    '',
    t('common.signature'),
  ]
    .filter((line, i, all) => !(line === '' && all[i - 1] === ''))
    .join('\n');
  const html = `<!doctype html><html lang="${escapeHtml(options.language)}"><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p>
<p><a href="${escapeHtml(options.link)}" style="display:inline-block;padding:10px 16px;background:#1c7ed6;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(action)}</a></p>
<p style="color:#555;font-size:13px">${escapeHtml(t('common.linkHint'))}<br>${escapeHtml(options.link)}</p>
${expiry ? `<p style="color:#555;font-size:13px">${escapeHtml(expiry)}</p>` : ''}
<p style="color:#555;font-size:13px">${escapeHtml(t('common.ignore'))}</p><p>${escapeHtml(t('common.signature'))}</p></body></html>`;
  return { subject, text, html };
}
