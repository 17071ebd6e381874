/**
 * End-to-end encryption of notifications with the device's `push_key` (level 432): a byte
 * naming the cryptosystem, then the key. The one cryptosystem so far, 0x31, is libsodium's
 * secretbox (XSalsa20-Poly1305); the ciphertext travels as base64 of the nonce followed by the
 * box, so only the phone can read what the relay forwards.
 */

const SECRETBOX = 0x31;
const SECRETBOX_KEY_BYTES = 32;

/** The key's bytes when `pushKey` is standard base64 of a supported key, else undefined. */
export function decodePushKey(pushKey: string): Buffer | undefined {
  if (!isStandardBase64(pushKey)) return undefined;
  const bytes = Buffer.from(pushKey, 'base64');
  if (bytes.length !== 1 + SECRETBOX_KEY_BYTES || bytes[0] !== SECRETBOX) return undefined;
  return bytes;
}

/** Whether `text` is standard (RFC 4648) base64, padding included. */
export function isStandardBase64(text: string): boolean {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text);
}

/** Undefined when the stored key is unusable (it was checked on registration, so never in practice). */
export async function sealForDevice(pushKey: string, payload: Record<string, unknown>): Promise<string | undefined> {
  const key = decodePushKey(pushKey);
  if (!key) return undefined;
  // Loaded on first use: loading libsodium instantiates its WebAssembly, which would cost
  // every start time and memory for a feature most servers never use.
  const { default: sodium } = await import('libsodium-wrappers');
  await sodium.ready;
  const nonce = sodium.randombytes_buf(sodium.crypto_secretbox_NONCEBYTES);
  const box = sodium.crypto_secretbox_easy(JSON.stringify(payload), nonce, key.subarray(1));
  return Buffer.concat([nonce, box]).toString('base64');
}
