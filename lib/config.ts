import { parseArgs } from 'node:util';
import proxyAddr from 'proxy-addr';
import { DATA_FLAG, DATA_VARIABLE, DEFAULT_DATA_FOLDER } from './data-folder';

/** Everything the command line and environment can set, after defaults and checks. */
export interface Config {
  host: string;
  port: number;
  /** Folder holding stoa.db and zuliprc, or ':memory:' for a server that writes nothing. */
  data: string;
  /** Name, owner email and owner password are used once: when the organization is created. */
  realmName: string;
  adminEmail: string;
  /** Undefined: generate one and print it once. */
  adminPassword: string | undefined;
  /** Enables Zulip's development-server login endpoints. */
  dev: boolean;
  /**
   * Fills a fresh data folder with the people, channels and conversations of Zulip's own
   * development organization (lib/demo/); implies `dev`.
   */
  demo: boolean;
  /**
   * Creates a new organization with nothing in it but its owner: no starter channels, no
   * Welcome Bot messages (for tests, and for people who set everything up themselves).
   */
  emptyOrganization: boolean;
  /**
   * Lets the organization offer web-public channels (Zulip's WEB_PUBLIC_STREAMS_ENABLED). The
   * organization still has to turn on enable_spectator_access.
   */
  webPublic: boolean;
  /** Base URL of Slack's Web API, which the slack integration asks for the names of people and channels. */
  slackApi: string;
  /** Base URL of the push notification relay; undefined: mobile push is off. */
  pushRelay: string | undefined;
  /**
   * The address people reach the server by (behind a proxy, or from other machines), without
   * a trailing slash; undefined: derived from where the server listens.
   */
  site: string | undefined;
  /** The largest file one upload may be, in MiB (Zulip's max_file_upload_size_mib); 0 turns uploads off. */
  maxFileUploadSizeMib: number;
  /** How much all uploads together may take, in MiB; undefined: no limit. */
  uploadQuotaMib: number | undefined;
  /** Whether people without an uploaded avatar get a gravatar; off, nothing points outside the server. */
  gravatar: boolean;
  /** How long an outgoing-webhook bot's server has to answer (Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS). */
  outgoingWebhookTimeoutSeconds: number;
  /**
   * The mail server Stoa's mail is sent through, as a URL (smtp://user:pass@host:587, or
   * smtps:// for TLS from the start); undefined: no outgoing mail (no email invitations,
   * missed-message emails, password resets or email changes).
   */
  smtp: string | undefined;
  /** The sender of outgoing mail; undefined: noreply@ the organization's host name. */
  mailFrom: string | undefined;
  /** Where the server writes its own backups while it runs; undefined: no scheduled backups. */
  backupDir: string | undefined;
  /** Hours between scheduled backups. */
  backupEveryHours: number;
  /** How many scheduled backups are kept; older ones are removed once a new one is written. */
  backupKeep: number;
  /**
   * The proxies whose X-Forwarded-For is believed: addresses, CIDR ranges, or the names
   * loopback, linklocal and uniquelocal. A request's client is the last address in that header
   * not in this list; requests from anywhere else are their socket's address.
   */
  trustedProxies: string[];
}

/** A bad flag or variable: server.ts prints the message on one line and exits with status 2. */
export class ConfigError extends Error {}

interface Option {
  flag: string;
  env: string;
  kind: 'string' | 'boolean';
  help: string;
}

const OPTIONS: Record<keyof Config, Option> = {
  host: { flag: 'host', env: 'STOA_HOST', kind: 'string', help: 'address to listen on (default 127.0.0.1)' },
  port: { flag: 'port', env: 'STOA_PORT', kind: 'string', help: 'port to listen on; 0 picks a free one (default 9991)' },
  data: {
    flag: DATA_FLAG,
    env: DATA_VARIABLE,
    kind: 'string',
    help: 'folder for stoa.db and zuliprc, or :memory: to keep nothing on disk (default ./data)',
  },
  realmName: {
    flag: 'realm-name',
    env: 'STOA_REALM_NAME',
    kind: 'string',
    help: 'organization name, used when the organization is created (default Stoa)',
  },
  adminEmail: {
    flag: 'admin-email',
    env: 'STOA_ADMIN_EMAIL',
    kind: 'string',
    help: "owner's email, used when the organization is created (default owner@stoa.local)",
  },
  adminPassword: {
    flag: 'admin-password',
    env: 'STOA_ADMIN_PASSWORD',
    kind: 'string',
    help: "owner's password, used when the organization is created (default: generated and printed once)",
  },
  dev: {
    flag: 'dev',
    env: 'STOA_DEV',
    kind: 'boolean',
    help: 'enable the development login endpoints /dev_fetch_api_key, /dev_list_users and /accounts/dev_login',
  },
  demo: {
    flag: 'demo',
    env: 'STOA_DEMO',
    kind: 'boolean',
    help: "start a fresh data folder as Zulip's development organization (Iago, Hamlet, Verona, ...); implies --dev",
  },
  emptyOrganization: {
    flag: 'empty-organization',
    env: 'STOA_EMPTY_ORGANIZATION',
    kind: 'boolean',
    help: 'create a new organization without its starter channels and Welcome Bot messages',
  },
  webPublic: {
    flag: 'web-public',
    env: 'STOA_WEB_PUBLIC',
    kind: 'boolean',
    help: 'allow web-public channels, once the organization enables spectator access',
  },
  slackApi: {
    flag: 'slack-api',
    env: 'STOA_SLACK_API',
    kind: 'string',
    help: "base URL of Slack's Web API, asked by the slack integration for names (default https://slack.com/api)",
  },
  pushRelay: {
    flag: 'push-relay',
    env: 'STOA_PUSH_RELAY',
    kind: 'string',
    help: 'URL of the push notification relay that delivers mobile notifications (default: none, push off)',
  },
  site: {
    flag: 'site',
    env: 'STOA_SITE',
    kind: 'string',
    help: 'the URL people reach the server by, e.g. https://chat.example.org (default: from --host and --port)',
  },
  maxFileUploadSizeMib: {
    flag: 'max-file-upload-size-mib',
    env: 'STOA_MAX_FILE_UPLOAD_SIZE_MIB',
    kind: 'string',
    help: 'largest file one upload may be, in MiB; 0 turns uploads off (default 25)',
  },
  gravatar: {
    flag: 'no-gravatar',
    env: 'STOA_NO_GRAVATAR',
    kind: 'boolean',
    help: 'never use gravatar: people without an uploaded avatar get a default picture served by Stoa',
  },
  uploadQuotaMib: {
    flag: 'upload-quota-mib',
    env: 'STOA_UPLOAD_QUOTA_MIB',
    kind: 'string',
    help: 'how much all uploaded files together may take, in MiB (default: no limit)',
  },
  outgoingWebhookTimeoutSeconds: {
    flag: 'outgoing-webhook-timeout-seconds',
    env: 'STOA_OUTGOING_WEBHOOK_TIMEOUT_SECONDS',
    kind: 'string',
    help: "how long an outgoing-webhook bot's server has to answer, in seconds (default 10)",
  },
  smtp: {
    flag: 'smtp',
    env: 'STOA_SMTP',
    kind: 'string',
    help: 'mail server for invitations, missed-message emails, password resets and email changes, e.g. smtp://user:password@mail.example.org:587 or smtps://... (default: none, no mail)',
  },
  mailFrom: {
    flag: 'mail-from',
    env: 'STOA_MAIL_FROM',
    kind: 'string',
    help: "sender address of outgoing mail (default noreply@ the organization's host name)",
  },
  backupDir: {
    flag: 'backup-dir',
    env: 'STOA_BACKUP_DIR',
    kind: 'string',
    help: 'write a backup into this folder while serving, at start and then every --backup-every hours (default: none)',
  },
  backupEveryHours: {
    flag: 'backup-every',
    env: 'STOA_BACKUP_EVERY',
    kind: 'string',
    help: 'hours between scheduled backups (default 24)',
  },
  backupKeep: {
    flag: 'backup-keep',
    env: 'STOA_BACKUP_KEEP',
    kind: 'string',
    help: 'how many scheduled backups to keep; older ones are removed (default 7)',
  },
  trustedProxies: {
    flag: 'trusted-proxies',
    env: 'STOA_TRUSTED_PROXIES',
    kind: 'string',
    help: "comma-separated proxies whose X-Forwarded-For names the client: addresses, CIDR ranges, loopback, linklocal, uniquelocal, or 'none' (default loopback)",
  },
};

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 9991,
  data: DEFAULT_DATA_FOLDER,
  realmName: 'Stoa',
  adminEmail: 'owner@stoa.local',
  dev: false,
  demo: false,
  emptyOrganization: false,
  webPublic: false,
  slackApi: 'https://slack.com/api',
  pushRelay: undefined as string | undefined,
  site: undefined as string | undefined,
  maxFileUploadSizeMib: 25,
  uploadQuotaMib: undefined as number | undefined,
  gravatar: true,
  outgoingWebhookTimeoutSeconds: 10,
  smtp: undefined as string | undefined,
  mailFrom: undefined as string | undefined,
  backupDir: undefined as string | undefined,
  backupEveryHours: 24,
  backupKeep: 7,
  // A proxy on the same machine, as docs/running.md sets one up.
  trustedProxies: ['loopback'],
};

export function usage(): string {
  const lines = ['Usage: stoa [options]', '', 'Options (each also read from the environment variable shown):'];
  for (const option of Object.values(OPTIONS)) {
    const flag = option.kind === 'string' ? `--${option.flag} VALUE` : `--${option.flag}`;
    lines.push(`  ${flag.padEnd(24)} ${option.env.padEnd(20)} ${option.help}`);
  }
  lines.push(`  ${'--help'.padEnd(24)} ${''.padEnd(20)} print this help and exit`);
  lines.push('', 'Also: stoa export [--data DIR] [--output FILE] writes a Zulip export tarball (see stoa export --help).');
  lines.push('Also: stoa import EXPORT [--data DIR] fills a new data folder from a Zulip export (see stoa import --help).');
  lines.push('Also: stoa backup [--data DIR] --output FILE writes a backup of a data folder, served or not (see stoa backup --help).');
  lines.push('Also: stoa restore BACKUP --data DIR fills a new data folder from a backup (see stoa restore --help).');
  lines.push('Also: stoa reactivate [--data DIR] opens a deactivated organization again (see stoa reactivate --help).');
  lines.push('Also: stoa owner-full-content-access --enable|--disable [--data DIR] lets owners export without consent (see its --help).');
  return lines.join('\n');
}

function parseBoolean(name: string, value: string): boolean {
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off|)$/i.test(value)) return false;
  throw new ConfigError(`${name} must be true or false, not '${value}'`);
}

function parsePort(name: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new ConfigError(`${name} must be a port number from 0 to 65535, not '${value}'`);
  }
  return Number(value);
}

function parseHttpUrl(name: string, value: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // Refused below, with every other URL that is not http or https.
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ConfigError(`${name} must be an http or https URL, not '${value}'`);
  }
  return url;
}

/** The base URL of a service Stoa calls (the push relay, Slack's Web API); credentials, if any, ride in its user-info part. */
function parseServiceUrl(name: string, value: string): string {
  parseHttpUrl(name, value);
  return value;
}

function parseMib(name: string, value: string): number {
  if (!/^\d{1,7}$/.test(value)) throw new ConfigError(`${name} must be a whole number of MiB, not '${value}'`);
  return Number(value);
}

/**
 * Clients build every URL from the organization's URL by appending paths such as /api/v1, so
 * it may name only a scheme, host and port: Stoa serves from the root of its address.
 */
function parseSiteUrl(name: string, value: string): string {
  const url = parseHttpUrl(name, value);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(`${name} must be a scheme, host and port only, like https://chat.example.org, not '${value}'`);
  }
  return url.origin;
}

function parseSeconds(name: string, value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || seconds <= 0 || seconds > 3600) {
    throw new ConfigError(`${name} must be a number of seconds above 0 and at most 3600, not '${value}'`);
  }
  return seconds;
}

/** The credentials, if any, ride in the URL's user-info part, percent-encoded. */
function parseSmtpUrl(name: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // Refused below, with every other URL that is not smtp or smtps.
  }
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new ConfigError(`${name} must be an smtp:// or smtps:// URL like smtp://user:password@mail.example.org:587, not '${value}'`);
  }
  return value;
}

function parseMailAddress(name: string, value: string): string {
  if (!/^[^@\s<>]+@[^@\s<>]+$/.test(value)) throw new ConfigError(`${name} must look like name@domain, not '${value}'`);
  return value;
}

/** Fractions allow short intervals for trying it out; a year is the longest. */
function parseHours(name: string, value: string): number {
  const hours = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || hours <= 0 || hours > 8760) {
    throw new ConfigError(`${name} must be a number of hours above 0 and at most 8760, not '${value}'`);
  }
  return hours;
}

function parseCount(name: string, value: string): number {
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1) throw new ConfigError(`${name} must be a whole number from 1 to 9999, not '${value}'`);
  return Number(value);
}

function parseTrustedProxies(name: string, value: string): string[] {
  const entries = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.length === 1 && entries[0] === 'none') return [];
  try {
    proxyAddr.compile(entries);
  } catch (err) {
    throw new ConfigError(`${name} must list addresses, CIDR ranges, loopback, linklocal or uniquelocal, or be 'none': ${(err as Error).message}`);
  }
  if (entries.length === 0) throw new ConfigError(`${name} must list addresses, CIDR ranges, loopback, linklocal or uniquelocal, or be 'none'`);
  return entries;
}

function nonEmpty(name: string, value: string): string {
  if (value.trim() === '') throw new ConfigError(`${name} must not be empty`);
  return value;
}

/** Flags win over environment variables, which win over defaults. Returns 'help' for --help. */
export function parseConfig(argv: string[], env: NodeJS.ProcessEnv): Config | 'help' {
  const spec = Object.fromEntries(
    Object.values(OPTIONS).map((o) => [o.flag, { type: o.kind } as const]),
  ) as Record<string, { type: 'string' | 'boolean' }>;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...spec, help: { type: 'boolean' } }, strict: true }));
  } catch (err) {
    throw new ConfigError(`${(err as Error).message.split('\n')[0]} (see --help)`);
  }
  if (values.help) return 'help';

  // The raw text of each setting and where it came from, for error messages.
  const raw = (key: keyof Config): { value: string | boolean; source: string } | undefined => {
    const option = OPTIONS[key];
    const flagValue = values[option.flag];
    if (flagValue !== undefined) return { value: flagValue, source: `--${option.flag}` };
    const envValue = env[option.env];
    if (envValue !== undefined) return { value: envValue, source: option.env };
    return undefined;
  };
  const text = (key: keyof Config, fallback: string): string => {
    const setting = raw(key);
    return setting ? nonEmpty(setting.source, String(setting.value)) : fallback;
  };

  const port = raw('port');
  const flag = (key: 'dev' | 'demo' | 'emptyOrganization' | 'webPublic' | 'gravatar'): boolean => {
    const setting = raw(key);
    if (setting === undefined) return false;
    return typeof setting.value === 'boolean' ? setting.value : parseBoolean(setting.source, setting.value);
  };
  const adminEmail = text('adminEmail', DEFAULTS.adminEmail);
  if (!/^[^@\s]+@[^@\s]+$/.test(adminEmail)) {
    throw new ConfigError(`the owner's email must look like name@domain, not '${adminEmail}'`);
  }
  const adminPassword = raw('adminPassword');
  const pushRelay = raw('pushRelay');
  const slackApi = raw('slackApi');
  const site = raw('site');
  const maxFileUploadSizeMib = raw('maxFileUploadSizeMib');
  const uploadQuotaMib = raw('uploadQuotaMib');
  const outgoingWebhookTimeout = raw('outgoingWebhookTimeoutSeconds');
  const smtp = raw('smtp');
  const mailFrom = raw('mailFrom');
  const backupDir = raw('backupDir');
  const backupEvery = raw('backupEveryHours');
  const backupKeep = raw('backupKeep');
  const trustedProxies = raw('trustedProxies');
  if (!backupDir && (backupEvery || backupKeep)) {
    throw new ConfigError(`${(backupEvery ?? backupKeep)!.source} needs --backup-dir, the folder the backups go to`);
  }
  const data = text('data', DEFAULTS.data);
  if (backupDir && data === ':memory:') throw new ConfigError(`${backupDir.source}: a server with --data :memory: keeps nothing to back up`);
  return {
    host: text('host', DEFAULTS.host),
    port: port ? parsePort(port.source, String(port.value)) : DEFAULTS.port,
    data,
    realmName: text('realmName', DEFAULTS.realmName),
    adminEmail,
    adminPassword: adminPassword ? nonEmpty(adminPassword.source, String(adminPassword.value)) : undefined,
    // The demo's people log in through the development login unless --admin-password gives them a password.
    dev: flag('dev') || flag('demo'),
    demo: flag('demo'),
    emptyOrganization: flag('emptyOrganization'),
    webPublic: flag('webPublic'),
    slackApi: slackApi ? parseServiceUrl(slackApi.source, nonEmpty(slackApi.source, String(slackApi.value))) : DEFAULTS.slackApi,
    pushRelay: pushRelay
      ? parseServiceUrl(pushRelay.source, nonEmpty(pushRelay.source, String(pushRelay.value)))
      : DEFAULTS.pushRelay,
    site: site ? parseSiteUrl(site.source, String(site.value)) : DEFAULTS.site,
    maxFileUploadSizeMib: maxFileUploadSizeMib
      ? parseMib(maxFileUploadSizeMib.source, String(maxFileUploadSizeMib.value))
      : DEFAULTS.maxFileUploadSizeMib,
    uploadQuotaMib: uploadQuotaMib ? parseMib(uploadQuotaMib.source, String(uploadQuotaMib.value)) : DEFAULTS.uploadQuotaMib,
    // The flag says "no", the setting "yes".
    gravatar: !flag('gravatar'),
    outgoingWebhookTimeoutSeconds: outgoingWebhookTimeout
      ? parseSeconds(outgoingWebhookTimeout.source, String(outgoingWebhookTimeout.value))
      : DEFAULTS.outgoingWebhookTimeoutSeconds,
    smtp: smtp ? parseSmtpUrl(smtp.source, String(smtp.value)) : DEFAULTS.smtp,
    mailFrom: mailFrom ? parseMailAddress(mailFrom.source, String(mailFrom.value)) : DEFAULTS.mailFrom,
    backupDir: backupDir ? nonEmpty(backupDir.source, String(backupDir.value)) : DEFAULTS.backupDir,
    backupEveryHours: backupEvery ? parseHours(backupEvery.source, String(backupEvery.value)) : DEFAULTS.backupEveryHours,
    backupKeep: backupKeep ? parseCount(backupKeep.source, String(backupKeep.value)) : DEFAULTS.backupKeep,
    trustedProxies: trustedProxies ? parseTrustedProxies(trustedProxies.source, String(trustedProxies.value)) : DEFAULTS.trustedProxies,
  };
}
