import { UnsupportedEvent } from './errors';
import type { Integration } from './types';

/** Netlify's deploy notifications, named by the X-Netlify-Event header, in a topic per branch. */

const STATE_EVENTS = new Set(['deploy_building', 'deploy_created']);

export const netlify: Integration = {
  name: 'netlify',
  displayName: 'Netlify',
  handle(request) {
    const p = request.json();
    const event = request.requireHeader('X-Netlify-Event');
    let what: string;
    if (event === 'deploy_failed') what = p.error_message;
    else if (event === 'deploy_locked') what = 'is now locked.';
    else if (event === 'deploy_unlocked') what = 'is now unlocked.';
    else if (STATE_EVENTS.has(event)) what = `is now ${p.state}.`;
    else throw new UnsupportedEvent(event);
    return { topic: p.branch, content: `The build [${p.name}](${p.url}) on branch ${p.branch} ${what}`, event };
  },
};
