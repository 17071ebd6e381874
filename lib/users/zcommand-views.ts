import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import { changeUserSettings, userSettings } from './settings-store';

/** color_scheme's values for the two themes a slash command can pick. */
const DARK = 2;
const LIGHT = 3;

/**
 * The slash commands that only flip one of the user's display settings, with the setting, its
 * value, what the mode is called and the command that undoes it.
 */
const MODE_COMMANDS: Record<string, { setting: string; value: number | boolean; mode: string; undo: string; already: string }> = {
  dark: { setting: 'color_scheme', value: DARK, mode: 'dark theme', undo: 'light', already: 'You are still in dark theme.' },
  light: { setting: 'color_scheme', value: LIGHT, mode: 'light theme', undo: 'dark', already: 'You are still in light theme.' },
  'fluid-width': {
    setting: 'fluid_layout_width',
    value: true,
    mode: 'fluid-width mode',
    undo: 'fixed-width',
    already: 'You are still in fluid width mode.',
  },
  'fixed-width': {
    setting: 'fluid_layout_width',
    value: false,
    mode: 'fixed-width mode',
    undo: 'fluid-width',
    already: 'You are still in fixed width mode.',
  },
};

/**
 * POST /zcommand: the web app's slash commands that the server answers (/ping) or that
 * change a display setting (/dark, /light, /fluid-width, /fixed-width), with Zulip's replies.
 */
export const zcommandView = endpoint<{ command: string }>({
  params: { properties: { command: { type: 'string' } }, required: ['command'] },
  view: ({ stoa, user, params }) => {
    if (!params.command.startsWith('/')) throw badRequest('There should be a leading slash in the zcommand.');
    const name = params.command.slice(1);
    if (name === 'ping') return {};
    const mode = Object.hasOwn(MODE_COMMANDS, name) ? MODE_COMMANDS[name] : undefined;
    if (!mode) throw badRequest(`No such command: ${name}`);
    if (userSettings(stoa, user)[mode.setting] === mode.value) return { msg: mode.already };
    changeUserSettings(stoa, user.id, { [mode.setting]: mode.value });
    return { msg: `Changed to ${mode.mode}! To revert ${mode.mode}, type \`/${mode.undo}\`.` };
  },
});
