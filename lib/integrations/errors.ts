import { ApiError } from '../http/errors';

/**
 * An event the service sends that the integration does not turn into a message: Zulip
 * answers 200 with an error body, so that the service does not retry it.
 */
export function unsupportedEvent(eventType: string, webhookName: string): ApiError {
  return new ApiError(
    'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
    `The '${eventType}' event isn't currently supported by the ${webhookName} webhook; ignoring`,
    200,
    { webhook_name: webhookName, event_type: eventType },
  );
}

/** A payload that does not look like it came from the service at all. */
export function anomalousPayload(webhookName: string): ApiError {
  return new ApiError('ANOMALOUS_WEBHOOK_PAYLOAD', `Unable to parse request: Did ${webhookName} generate this event?`, 400, {
    webhook_name: webhookName,
  });
}

/** A body that should be JSON and is not. */
export function malformedJson(): ApiError {
  return new ApiError('INVALID_JSON', 'Malformed JSON', 400);
}

/** A header by which the service names its event, missing. */
export function missingEventHeader(header: string): ApiError {
  return new ApiError('MISSING_HTTP_EVENT_HEADER', `Missing the HTTP event header '${header}'`, 400, { header });
}

/** Thrown by an integration for an unsupported event; the view fills in the integration's name. */
export class UnsupportedEvent extends Error {
  constructor(readonly eventType: string) {
    super(eventType);
  }
}
