/**
 * What the web client asks of POST /register, kept apart from the code that sends it (no
 * imports) so that the day benchmark (bench/day.ts) registers exactly as the client does.
 */
export const WEB_CLIENT_REGISTRATION = {
  apply_markdown: true,
  // Gravatar URLs are made here (web/people/avatar-url.ts), not sent for every person.
  client_gravatar: true,
  slim_presence: true,
  include_subscribers: false,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: false,
    stream_typing_notifications: true,
    user_settings_object: true,
    simplified_presence_events: true,
    archived_channels: false,
    // Deactivated groups stay listed (flagged) so that the group settings can reactivate them.
    include_deactivated_groups: true,
    // The organization's linkifier settings show URL templates (otherwise no linkifiers come).
    linkifier_url_template: true,
  },
};
