import { num, str } from './payload';
import type { Integration } from './types';

/** Delighted: a survey response, praised as a promoter's from a score of 7 up. */
export const delighted: Integration = {
  name: 'delighted',
  displayName: 'Delighted',
  handle(request) {
    const response = request.json()?.event_data;
    const score = num(response, 'score');
    const opening = score >= 7 ? 'Kudos! You have a new promoter.' : 'Great! You have new feedback.';
    const content = `${opening} Score of ${score}/10 from ${str(response?.person, 'email')}:\n\`\`\` quote\n${str(response, 'comment')}\n\`\`\``;
    return { topic: 'Survey response', content };
  },
};
