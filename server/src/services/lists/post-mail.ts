import type { MailingListRecord } from '../../repositories/mailing-lists.js';

/** The mail a subscriber receives for an accepted post (server/docs/mailing-lists.md, the embedded engine). */
export function postMail(list: MailingListRecord, post: { sender: string; subject: string; text: string }): { subject: string; body: string } {
  const tag = `[${list.id.split('@')[0]}]`;
  const subject = post.subject.startsWith(tag) ? post.subject : `${tag} ${post.subject}`;
  return {
    subject,
    body: [`From: ${post.sender}`, `List: ${list.id}`, '', post.text, '', '--', `${list.description}`, 'Change your subscription on the Mailing Lists page of the portal.', ''].join('\n'),
  };
}
