import { badRequest } from '../http/errors';
import type { Integration } from './types';

/** WordPress's HookPress plugin: a post or page published, as form fields (each with a default). */
export const wordpress: Integration = {
  name: 'wordpress',
  displayName: 'WordPress',
  eventTypes: ['publish_post', 'publish_page'],
  tellOwnerOfBadJson: false,
  handle(request) {
    // Some senders leave whitespace after the action's name.
    const hook = (request.param('hook') ?? 'WordPress action').trimEnd();
    if (hook !== 'publish_post' && hook !== 'publish_page') throw badRequest(`Unknown WordPress webhook action: ${hook}`);
    const type = request.param('post_type') ?? 'post';
    const title = request.param('post_title') ?? 'New WordPress post';
    const url = request.param('post_url') ?? 'WordPress post URL';
    return { topic: 'WordPress notification', content: `New ${type} published:\n* [${title}](${url})`, event: hook };
  },
};
