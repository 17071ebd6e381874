/** The channel screens loaded on demand, as one chunk: the channel browser, a channel's settings and the default channels. */
export { ChannelBrowser } from './ChannelBrowser';
export { ChannelSettings } from './ChannelSettings';
export { DefaultChannels } from './DefaultChannels';
