import { str } from './payload';
import type { Integration } from './types';

/** The line both error trackers post: the error's class linked to it, and its message. */
function occurred(errorClass: string, url: string, message: string): string {
  return `[${errorClass}](${url}): "${message}" occurred.`;
}

/** Airbrake: an error in a project, in the project's topic. */
export const airbrake: Integration = {
  name: 'airbrake',
  displayName: 'Airbrake',
  handle(request) {
    const payload = request.json();
    const error = payload?.error;
    return {
      topic: str(error?.project, 'name'),
      content: occurred(str(error, 'error_class'), str(payload, 'airbrake_error_url'), str(error, 'error_message')),
    };
  },
};

/** Errbit (an Airbrake-compatible tracker): an error in an app, in its "app / environment" topic. */
export const errbit: Integration = {
  name: 'errbit',
  displayName: 'Errbit',
  handle(request) {
    const problem = request.json()?.problem;
    return {
      topic: `${str(problem, 'app_name')} / ${str(problem, 'environment')}`,
      content: occurred(str(problem, 'error_class'), str(problem, 'url'), str(problem, 'message')),
    };
  },
};
