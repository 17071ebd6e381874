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

/** POST /calls/nextcloud_talk/create (level 465): Stoa is configured with no Nextcloud server. */
export const createNextcloudTalkCall = endpoint<{ room_name: string }>({
  params: { properties: { room_name: { type: 'string' } }, required: ['room_name'] },
  view: () => {
    throw badRequest('Nextcloud Talk is not configured.');
  },
});

/** POST /calls/constructorgroups/create (level 460): Stoa is configured with no Constructor Groups account. */
export const createConstructorGroupsCall = endpoint<{ is_video_call: boolean }>({
  params: { properties: { is_video_call: { type: 'boolean', default: true } } },
  view: () => {
    throw badRequest('Constructor Groups is not configured.');
  },
});

/**
 * POST /calls/zoom/create: Zulip makes the meeting with the caller's Zoom account through the
 * server's Zoom app; Stoa has no Zoom app, so it refuses as a Zulip server without one does.
 */
export const createZoomCall = endpoint<{ is_video_call: boolean }>({
  params: { properties: { is_video_call: { type: 'boolean', default: true } } },
  view: () => {
    throw badRequest('Zoom credentials have not been configured');
  },
});
