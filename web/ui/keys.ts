/**
 * Key hints in tooltips ("Reply (r)"): shown only where there is a keyboard to press them, not on
 * touch screens, and only for keys the app's keyboard handler answers.
 */
const touchOnly = typeof matchMedia === 'function' && matchMedia('(hover: none) and (pointer: coarse)').matches;

export function withKey(label: string, key: string): string {
  return touchOnly ? label : `${label} (${key})`;
}
