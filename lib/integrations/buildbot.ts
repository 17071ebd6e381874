import type { Integration } from './types';

/** Buildbot's HttpStatusPush reporter: builds started and finished, in a topic named by the project. */

/** Buildbot's result codes, by number. */
const RESULTS = ['success', 'warnings', 'failure', 'skipped', 'exception', 'retry', 'cancelled'];

export const buildbot: Integration = {
  name: 'buildbot',
  displayName: 'Buildbot',
  eventTypes: ['new', 'finished'],
  handle(request) {
    const p = request.json();
    const event: string = p.event;
    const build = `Build [#${p.buildid}](${p.url})`;
    let content: string;
    if (event === 'new') content = `${build} for **${p.buildername}** started.`;
    else if (event === 'finished') {
      const result = RESULTS[p.results];
      if (result === undefined) throw new TypeError(`Buildbot result ${p.results}`);
      content = `${build} (result: ${result}) for **${p.buildername}** finished.`;
    } else throw new TypeError(`Buildbot event ${event}`);
    return { topic: p.project || 'general', content, event };
  },
};
