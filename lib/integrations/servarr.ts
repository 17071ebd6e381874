import { badRequest } from '../http/errors';
import { UnsupportedEvent } from './errors';
import { list, num, str, truthy } from './payload';
import { setupMessage } from './setup';
import type { Integration } from './types';

/**
 * The *arr media managers (Sonarr for series, Radarr for movies, Lidarr for music) share one
 * webhook shape: `eventType` and the item (series, movie, artist) it concerns, which names the topic.
 */

type Payload = any;

const bool = (value: Payload, key: string): boolean => {
  if (value === null || typeof value !== 'object' || !(key in value)) throw badRequest(`${key} is missing`);
  if (typeof value[key] !== 'boolean') throw badRequest(`${key} is not a boolean`);
  return value[key];
};

const first = (value: Payload, key: string): Payload => {
  const items = list(value, key);
  if (items.length === 0) throw badRequest(`${key}[0] is missing`);
  return items[0];
};

const int = (value: Payload, key: string): number => {
  const found = num(value, key);
  if (!Number.isInteger(found)) throw badRequest(`${key} is not an integer`);
  return found;
};

function sonarrBody(payload: Payload, event: string): string {
  if (event === 'Test') return setupMessage('Sonarr');
  if (event === 'Health') return `${str(payload, 'message')}.`;
  const series = str(payload.series, 'title');
  if (event === 'Rename') return `${series} episodes have been renamed.`;
  if (event === 'SeriesDelete') return `${series} has been deleted.`;
  const episode = () => {
    const first_ = first(payload, 'episodes');
    return `${series} - ${int(first_, 'seasonNumber')}x${int(first_, 'episodeNumber')} - ${str(first_, 'title')}`;
  };
  if (event === 'Download' && 'isUpgrade' in payload) {
    if (!bool(payload, 'isUpgrade')) return `${episode()} has been imported.`;
    const name = episode();
    return `${name} has been upgraded from ${str(first(payload, 'deletedFiles'), 'quality')} to ${str(payload.episodeFile, 'quality')}.`;
  }
  if (event === 'Grab') return `${episode()} has been grabbed.`;
  if (event === 'EpisodeFileDelete' && 'deleteReason' in payload) {
    return str(payload, 'deleteReason') === 'upgrade' ? `${episode()} has been deleted due to quality upgrade.` : `${episode()} has been deleted.`;
  }
  throw new UnsupportedEvent(event);
}

export const sonarr: Integration = {
  name: 'sonarr',
  displayName: 'Sonarr',
  eventTypes: ['Grab', 'EpisodeFileDelete', 'Test', 'Download', 'SeriesDelete', 'Health', 'Rename'],
  handle(request) {
    const payload = request.json();
    const event = str(payload, 'eventType');
    const content = sonarrBody(payload, event);
    const topic = event === 'Test' ? 'Sonarr - Test' : event === 'Health' ? `Health ${str(payload, 'level')}` : str(payload.series, 'title');
    return { topic, content, event };
  },
};

/** Why Radarr deleted a movie's file, as the message words it. */
const RADARR_DELETE_REASONS: Record<string, string> = {
  missingFromDisk: 'because it is missing from disk',
  manual: 'manually',
  upgrade: 'because an upgraded version exists',
  noLinkedEpisodes: 'because it has no linked episodes',
  manualOverride: 'via manual override',
};

function radarrBody(payload: Payload, event: string): string {
  if (event === 'Test') return setupMessage('Radarr');
  if (event === 'ApplicationUpdate') return `Radarr was updated from ${str(payload, 'previousVersion')} to ${str(payload, 'newVersion')}.`;
  if (event === 'Health') return `${str(payload, 'message')}.`;
  const movie = () => str(payload.movie, 'title');
  if (event === 'Rename') return `The movie ${movie()} has been renamed.`;
  if (event === 'Download' && 'isUpgrade' in payload) {
    if (!truthy(payload.isUpgrade)) return `The movie ${movie()} has been imported.`;
    const title = movie();
    return `The movie ${title} has been upgraded from ${str(first(payload, 'deletedFiles'), 'quality')} to ${str(payload.movieFile, 'quality')}.`;
  }
  if (event === 'Grab') return `The movie ${movie()} has been grabbed.`;
  if (event === 'MovieDelete') {
    const title = movie();
    return `The movie ${title} was deleted; its files were ${bool(payload, 'deletedFiles') ? 'also' : 'not'} deleted.`;
  }
  if (event === 'MovieFileDelete') {
    const title = movie();
    const quality = str(payload.movieFile, 'quality');
    const reason = str(payload, 'deleteReason');
    if (!Object.hasOwn(RADARR_DELETE_REASONS, reason)) throw badRequest('Invalid deleteReason');
    return `A file with quality ${quality} for the movie ${title} was deleted, ${RADARR_DELETE_REASONS[reason]}.`;
  }
  if (event === 'MovieAdded') return `The movie ${movie()} was added.`;
  throw new UnsupportedEvent(event);
}

export const radarr: Integration = {
  name: 'radarr',
  displayName: 'Radarr',
  eventTypes: ['ApplicationUpdate', 'Test', 'Rename', 'Download', 'Health', 'Grab', 'MovieDelete', 'MovieFileDelete', 'MovieAdded'],
  handle(request) {
    const payload = request.json();
    const event = str(payload, 'eventType');
    const content = radarrBody(payload, event);
    const topic =
      event === 'Test' ? 'Radarr - Test'
      : event === 'ApplicationUpdate' ? 'Radarr - Application update'
      : event === 'Health' ? `Health ${str(payload, 'level')}`
      : str(payload.movie, 'title');
    return { topic, content, event };
  },
};

/** At most this many imported tracks are listed; the rest are counted. */
const LIDARR_TRACKS_LIMIT = 20;

function lidarrTracks(payload: Payload): string {
  const titles = list(payload, 'tracks').map((track) => str(track, 'title'));
  let lines = titles.slice(0, LIDARR_TRACKS_LIMIT).map((title) => `* ${title}\n`).join('');
  if (titles.length > LIDARR_TRACKS_LIMIT) lines += `[and ${titles.length - LIDARR_TRACKS_LIMIT} more tracks(s)]`;
  return lines.trimEnd();
}

function lidarrBody(payload: Payload, event: string): string {
  if (event === 'Test') return setupMessage('Lidarr');
  const artist = () => str(payload.artist, 'name');
  if (event === 'Grab') return `The album ${str(first(payload, 'albums'), 'title')} by ${artist()} has been grabbed.`;
  if (event === 'Rename') return `The artist ${artist()} has had its tracks renamed.`;
  if (event === 'Retag') return `The artist ${artist()} has had its tracks retagged.`;
  if (event === 'Download' && 'isUpgrade' in payload) {
    const upgrade = bool(payload, 'isUpgrade');
    const tracks = lidarrTracks(payload);
    return `The following tracks by ${artist()} have been imported${upgrade ? ' due to upgrade' : ''}:\n${tracks}`;
  }
  throw new UnsupportedEvent(event);
}

export const lidarr: Integration = {
  name: 'lidarr',
  displayName: 'Lidarr',
  eventTypes: ['Test', 'Grab', 'Rename', 'Retag', 'Download'],
  handle(request) {
    const payload = request.json();
    const event = str(payload, 'eventType');
    const content = lidarrBody(payload, event);
    return { topic: event === 'Test' ? 'Lidarr - Test' : str(payload.artist, 'name'), content, event };
  },
};
