/**
 * End-to-end encryption of notifications: a libsodium sealed box for the device's public
 * key (level 420's push_public_key), so only the phone can read what the relay forwards.
 */

/** Undefined when the key is not a base64 Curve25519 public key. */
export async function sealForDevice(publicKeyBase64: string, payload: Record<string, unknown>): Promise<string | undefined> {
  // Loaded on first use: loading libsodium instantiates its WebAssembly, which would cost
  // every start time and memory for a feature most servers never use.
  const { default: sodium } = await import('libsodium-wrappers');
  await sodium.ready;
  let publicKey: Uint8Array;
  try {
    publicKey = sodium.from_base64(publicKeyBase64, sodium.base64_variants.ORIGINAL);
  } catch {
    return undefined;
  }
  if (publicKey.length !== sodium.crypto_box_PUBLICKEYBYTES) return undefined;
  const sealed = sodium.crypto_box_seal(JSON.stringify(payload), publicKey);
  return sodium.to_base64(sealed, sodium.base64_variants.ORIGINAL);
}
