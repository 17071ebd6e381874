import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import pLimit from 'p-limit';

const scryptOnPool = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/**
 * How many passwords are hashed at once. Each hash holds 32 MB while it runs (below), and the
 * thread pool would run four: a burst of logins would take 128 MB, more than the whole server
 * needs otherwise. The others wait their turn, tens of milliseconds each.
 */
const HASHES_AT_ONCE = 2;
const hashing = pLimit(HASHES_AT_ONCE);
const scryptAsync = (...args: Parameters<typeof scryptOnPool>) => hashing(() => scryptOnPool(...args));

/** How many password hashes are running and how many wait for their turn. */
export function passwordHashing(): { running: number; waiting: number } {
  return { running: hashing.activeCount, waiting: hashing.pendingCount };
}

const API_KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const API_KEY_LENGTH = 32;

/** 32 random alphanumeric characters, the format Zulip clients expect of an API key. */
export function generateApiKey(): string {
  let key = '';
  for (let i = 0; i < API_KEY_LENGTH; i++) key += API_KEY_ALPHABET[randomInt(API_KEY_ALPHABET.length)];
  return key;
}

export function hasApiKeyFormat(key: string): boolean {
  return /^[A-Za-z0-9]{32}$/.test(key);
}

/** Compares secrets in time independent of where they differ. */
export function sameSecret(given: string, stored: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A random secret for a cookie or a link: 256 bits, URL-safe. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What is stored of a token: its SHA-256. The token is random and long, so a slow hash
 * would add nothing, and a fast one lets a lookup by hash use the index.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const CONFIRMATION_KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * The key of an invitation link: 24 characters of lower-case base32 (120 bits), the shape of
 * Zulip's confirmation keys, short enough to read out in a classroom.
 */
export function generateConfirmationKey(): string {
  let key = '';
  for (let i = 0; i < 24; i++) key += CONFIRMATION_KEY_ALPHABET[randomInt(CONFIRMATION_KEY_ALPHABET.length)];
  return key;
}

export function hasConfirmationKeyFormat(key: string): boolean {
  return /^[a-z2-7]{24}$/.test(key);
}

/** A printable random password for an owner created without one. */
export function generatePassword(): string {
  return randomBytes(12).toString('base64url');
}

// scrypt cost: N = 2^15 takes tens of milliseconds and 32 MB, which makes guessing slow
// without making a login noticeably slow. Parameters are stored with each hash, so they can
// be raised later without invalidating existing passwords.
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keylen: 32 };

/** A salted scrypt hash: `scrypt$N$r$p$salt$hash`, salt and hash in base64. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, SCRYPT.keylen, { ...SCRYPT, maxmem: 128 * SCRYPT.N * SCRYPT.r * 2 });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

// Checked against when an account has no password, so that a login attempt costs the same
// whether or not the account can log in by password.
const UNUSABLE_HASH = ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, Buffer.alloc(16).toString('base64'), Buffer.alloc(SCRYPT.keylen).toString('base64')].join('$');

/** Whether `password` matches a hash made by hashPassword; always false when there is none. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const usable = stored !== null && stored.startsWith('scrypt$');
  const [, n, r, p, salt, hash] = (usable ? stored : UNUSABLE_HASH).split('$');
  const expected = Buffer.from(hash, 'base64');
  const N = Number(n);
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N,
    r: Number(r),
    p: Number(p),
    maxmem: 128 * N * Number(r) * 2,
  });
  return usable && timingSafeEqual(actual, expected);
}
