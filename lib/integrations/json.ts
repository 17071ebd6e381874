import type { Integration } from './types';

/** Escapes what Python's json.dumps escapes by default (every character past ASCII), so the text is the same. */
export function asciiJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Any JSON body, posted as a fenced JSON block. */
export const json: Integration = {
  name: 'json',
  displayName: 'JSON',
  menuName: 'JSON formatter',
  handle(request) {
    return { topic: 'JSON', content: `\`\`\`json\n${asciiJson(request.json())}\n\`\`\`` };
  },
};
