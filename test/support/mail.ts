import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** Whether an envelope names the address; mail servers may change the case of the domain. */
function sentTo(recipients: string[], address: string): boolean {
  return recipients.some((recipient) => recipient.toLowerCase() === address.toLowerCase());
}

/** A mail server on an ephemeral port that keeps what it is sent: the envelope's recipients and the parsed message. */
export class MailCatcher {
  readonly received: Array<{ to: string[]; mail: ParsedMail }> = [];
  private readonly smtp: SMTPServer;

  constructor() {
    this.smtp = new SMTPServer({
      logger: false,
      disableReverseLookup: true,
      // Plain SMTP with a password, as on a local relay: no TLS certificate to make for a test.
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      onAuth: (auth, _session, callback) => {
        if (auth.username === 'stoa' && auth.password === 'p@ss word') callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData: (stream, session, callback) => {
        simpleParser(stream).then(
          (mail) => {
            this.received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
            callback();
          },
          (err: Error) => callback(err),
        );
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.smtp.listen(0, '127.0.0.1', resolve));
    const { port } = this.smtp.server.address() as AddressInfo;
    return `smtp://stoa:${encodeURIComponent('p@ss word')}@127.0.0.1:${port}`;
  }

  /** The messages sent to these addresses, waiting (a little) for them to arrive. */
  async mailsTo(addresses: string[]): Promise<ParsedMail[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = addresses.map((address) => this.received.filter((r) => sentTo(r.to, address)).at(-1)?.mail);
      if (found.every((mail) => mail !== undefined)) return found as ParsedMail[];
      if (Date.now() > deadline) assert.fail(`no mail to ${addresses.join(', ')}; got ${JSON.stringify(this.received.map((r) => r.to))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  countTo(address: string): number {
    return this.received.filter((r) => sentTo(r.to, address)).length;
  }

  /** Waits (a little) until this many messages went to the address. */
  async waitForCount(address: string, count: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (this.countTo(address) < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(this.countTo(address), count, `mails to ${address}`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.smtp.close(() => resolve()));
  }
}

