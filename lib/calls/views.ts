import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';

/**
 * GET /calls/bigbluebutton/create. Zulip signs a join link for its BigBlueButton server; Stoa
 * has no such server, so it says so at once rather than hand out a link that cannot work.
 */
export const createBigBlueButtonCall = endpoint<{ meeting_name: string; voice_only: boolean }>({
  params: {
    properties: { meeting_name: { type: 'string' }, voice_only: { type: 'boolean', default: false } },
    required: ['meeting_name'],
  },
  view: () => {
    throw badRequest('BigBlueButton is not configured.');
  },
});
