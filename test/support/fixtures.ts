import assert from 'node:assert/strict';
import sharp from 'sharp';

/** The body of a response that must have succeeded; the failure names what was being done. */
export function ok(response: { status: number; body: any }, what: string): any {
  assert.equal(response.status, 200, `${what}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A PNG of one color, size pixels square. */
export async function png(color: { r: number; g: number; b: number }, size = 64): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: color } }).png().toBuffer();
}
