import type { Integration } from './types';
import { str } from './payload';

/** The example integration of Zulip's tutorial: a greeting and the day's featured article. */
export const helloworld: Integration = {
  name: 'helloworld',
  displayName: 'HelloWorld',
  menuName: 'Hello World',
  handle(request) {
    const payload = request.json();
    const article = `**[${str(payload, 'featured_title')}](${str(payload, 'featured_url')})**`;
    return {
      topic: 'Hello World',
      content: `Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is ${article}`,
    };
  },
};
