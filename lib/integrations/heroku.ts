import { requiredParam } from './payload';
import type { Integration } from './types';

/** Heroku's deploy hook: form fields naming the app, the version and the git log. */
export const heroku: Integration = {
  name: 'heroku',
  displayName: 'Heroku',
  tellOwnerOfBadJson: false,
  handle(request) {
    const [head, app, user, url, gitLog] = ['head', 'app', 'user', 'url', 'git_log'].map((name) => requiredParam(request, name));
    return { topic: app, content: `${user} deployed version ${head} of [${app}](${url}):\n\n\`\`\` quote\n${gitLog}\n\`\`\`` };
  },
};
