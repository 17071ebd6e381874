import { badRequest } from '../http/errors';
import { num, str } from './payload';
import type { Integration } from './types';

/** Beeminder: a goal about to derail, with the hours left and the pledge at stake. */
export const beeminder: Integration = {
  name: 'beeminder',
  displayName: 'Beeminder',
  handle(request) {
    const goal = request.json()?.goal;
    const pledge = goal?.pledge;
    if (typeof pledge !== 'number') throw badRequest('pledge is not a number');
    const hoursLeft = (num(goal, 'losedate') - Date.now() / 1000) / 3600;
    const content =
      `You are going to derail from goal **${str(goal, 'slug')}** in **${hoursLeft.toFixed(1)} hours**. ` +
      `You need **${str(goal, 'limsum')}** to avoid derailing.\n` +
      `* Pledge: **$${pledge}** ${pledge > 0 ? ':worried:' : ':relieved:'}\n`;
    return { topic: 'beekeeper', content };
  },
};
