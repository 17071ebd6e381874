import type { StateContext } from '../events/state-context';
import { sendEvent, write } from '../events/send';
import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import { refuseBots } from '../users/access';

/**
 * Onboarding steps: one-time notices Zulip's web app shows each user once (an introduction to
 * a view, a banner), remembered by the server so that a notice dismissed on one device stays
 * dismissed on the others. Other clients ignore them.
 */
const ONE_TIME_NOTICES = [
  'visibility_policy_banner',
  'intro_inbox_view_modal',
  'intro_recent_view_modal',
  'first_stream_created_banner',
  'jump_to_conversation_banner',
  'non_interleaved_view_messages_fading',
  'interleaved_view_messages_fading',
  'intro_resolve_topic',
  'navigation_tour_video',
] as const;

/** The notices the user has yet to see, in Zulip's order. */
function nextSteps(stoa: Stoa, userId: number): Array<{ type: string; name: string }> {
  const seen = stoa.onboarding.seen(userId);
  return ONE_TIME_NOTICES.filter((name) => !seen.has(name)).map((name) => ({ type: 'one_time_notice', name }));
}

/** POST /users/me/onboarding_steps: the user has seen a notice; their clients stop showing it. */
export const markOnboardingStepView = endpoint<{ onboarding_step: string }>({
  params: { properties: { onboarding_step: { type: 'string' } }, required: ['onboarding_step'] },
  authorize: refuseBots,
  view: ({ stoa, user, params }) => {
    if (!(ONE_TIME_NOTICES as readonly string[]).includes(params.onboarding_step)) {
      throw badRequest(`Unknown onboarding_step: ${params.onboarding_step}`);
    }
    write(stoa, () => {
      stoa.onboarding.markSeen(user.id, params.onboarding_step, Math.floor(stoa.clock.now() / 1000));
      sendEvent(stoa, { type: 'onboarding_steps', onboarding_steps: nextSteps(stoa, user.id) }, [user.id]);
    });
    return {};
  },
});

/** Register state for fetch type `onboarding_steps`; Stoa has no navigation tour video. */
export function onboardingStepsState({ stoa, user }: StateContext): Record<string, unknown> {
  return { onboarding_steps: nextSteps(stoa, user.id), navigation_tour_video_url: null };
}
