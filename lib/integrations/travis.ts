import { jsonParam } from './payload';
import type { Integration } from './types';

/** Travis CI's build notifications: a form field `payload` holding the build as JSON. */

const EMOJI_BY_STATUS: Record<string, string> = {
  Passed: ':thumbs_up:',
  Fixed: ':thumbs_up:',
  Failed: ':thumbs_down:',
  Broken: ':thumbs_down:',
  'Still Failing': ':thumbs_down:',
  Errored: ':thumbs_down:',
  Canceled: ':thumbs_down:',
  Pending: ':counterclockwise:',
};

export const travis: Integration = {
  name: 'travis',
  displayName: 'Travis',
  eventTypes: ['push', 'pull_request'],
  handle(request) {
    const build = jsonParam(request, 'payload');
    const status: string = build.status_message;
    const emoji = EMOJI_BY_STATUS[status] ?? `(No emoji specified for status '${status}'.)`;
    const content = `Author: ${build.author_name}\nBuild status: ${status} ${emoji}\nDetails: [changes](${build.compare_url}), [build log](${build.build_url})`;
    return { topic: 'builds', content, event: build.type };
  },
};
