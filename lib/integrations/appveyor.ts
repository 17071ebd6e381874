import { str } from './payload';
import type { Integration } from './types';

/** AppVeyor: a finished build with its commit, in the project's topic. */
export const appveyor: Integration = {
  name: 'appveyor',
  displayName: 'Appveyor',
  handle(request) {
    const build = request.json()?.eventData;
    const field = (name: string) => str(build, name);
    const content =
      `[Build ${field('projectName')} ${field('buildVersion')} ${field('status')}](${field('buildUrl')}):\n` +
      `* **Commit**: [${field('commitId')}: ${field('commitMessage')}](${field('commitUrl')}) by ${field('committerName')}\n` +
      `* **Started**: ${field('started')}\n` +
      `* **Finished**: ${field('finished')}`;
    return { topic: field('projectName'), content };
  },
};
