/** The channel screens loaded on demand, as one chunk: a channel's settings and the default channels. */
export { ChannelSettings } from './ChannelSettings';
export { DefaultChannels } from './DefaultChannels';
