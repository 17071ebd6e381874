import type { Stoa } from '../stoa';
import type { MarkdownContext } from './render';

/** What the renderer may know about the realm, read from the database as it renders. */
export function markdownContextFor(stoa: Stoa): MarkdownContext {
  return {
    usersByName: (name) => stoa.users.activeByFullName(name).map((user) => ({ id: user.id, fullName: user.full_name })),
    userById: (id) => {
      const user = stoa.users.byId(id);
      return user && user.is_active && !user.is_system_bot ? { id: user.id, fullName: user.full_name } : null;
    },
    groupByName: (name) => {
      const group = stoa.groups.byName(name);
      return group && !group.deactivated ? { id: group.id, name: group.name! } : null;
    },
    channelByName: (name) => {
      const channel = stoa.channels.byName(name);
      return channel ? { id: channel.id, name: channel.name } : null;
    },
    // No custom emoji exist yet.
    realmEmoji: () => null,
    linkifiers: [],
    alertWords: [],
    realmUrl: stoa.site,
  };
}
