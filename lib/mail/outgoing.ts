import type { Transporter } from 'nodemailer';

/** One message to one person, in plain text and in simple HTML. */
export interface OutgoingMail {
  /** An address, or a name and an address. */
  from: string | { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, such as List-Unsubscribe. */
  headers?: Record<string, string>;
}

/** Text made safe to put into an email's HTML part. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Outgoing mail through the server named by --smtp. Sending never holds up a request: each
 * message goes out in the background, and a failure (mail server down, address refused) is
 * logged, since nobody is waiting for an answer any more.
 */
export class Mailer {
  private transport: Transporter | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly smtpUrl: string | undefined,
    private readonly log: (line: string) => void,
  ) {}

  /** Whether outgoing mail is set up at all. */
  get configured(): boolean {
    return this.smtpUrl !== undefined;
  }

  /** Starts sending; returns at once. */
  send(mail: OutgoingMail): void {
    if (this.smtpUrl === undefined) return;
    // Made on the first message, not at start-up: nodemailer costs tens of milliseconds and
    // about 12 MB, and most servers never send mail. It reads host, port, credentials and
    // TLS (smtps:) from the URL itself.
    if (!this.transport) {
      const nodemailer = require('nodemailer') as typeof import('nodemailer');
      this.transport = nodemailer.createTransport(this.smtpUrl);
    }
    const sending = this.transport.sendMail(mail).then(
      () => undefined,
      (err: unknown) => this.log(`Mail to ${mail.to} not sent: ${err instanceof Error ? err.message : String(err)}`),
    );
    this.inFlight.add(sending);
    void sending.finally(() => this.inFlight.delete(sending));
  }

  /** Waits for the messages being sent (at most `graceMs`), then closes the connections. */
  async stop(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs).unref();
    });
    await Promise.race([Promise.all(this.inFlight), deadline]);
    clearTimeout(timer);
    this.transport?.close();
  }
}

/** The sender of the organization's mail: --mail-from, or noreply@ the host people reach it by. */
export function senderAddress(mailFrom: string | undefined, site: string): string {
  return mailFrom ?? `noreply@${new URL(site).hostname}`;
}

/** A part of a simple message: a paragraph of text, a link on its own line, or quoted text. */
export type MailPart = string | { link: string } | { quote: string };

/** A simple message's plain-text and HTML bodies, made from the same parts. */
export function mailBody(parts: readonly MailPart[]): { text: string; html: string } {
  const text = parts.map((part) =>
    typeof part === 'string' ? part : 'link' in part ? part.link : part.quote.split('\n').map((line) => `> ${line}`).join('\n'),
  );
  const html = parts.map((part) => {
    if (typeof part === 'string') return `<p>${escapeHtml(part)}</p>`;
    if ('link' in part) return `<p><a href="${escapeHtml(part.link)}">${escapeHtml(part.link)}</a></p>`;
    return `<blockquote>${escapeHtml(part.quote).replace(/\n/g, '<br>')}</blockquote>`;
  });
  return { text: `${text.join('\n\n')}\n`, html: `${html.join('\n')}\n` };
}
