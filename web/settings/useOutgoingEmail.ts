import { useEffect, useState } from 'preact/hooks';
import { get } from '../api';

/**
 * Whether the server sends mail (started with --smtp), from /server_settings; undefined until
 * it answers. Settings that only act through email are offered where it does.
 */
export function useOutgoingEmail(): boolean | undefined {
  const [enabled, setEnabled] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    get<{ outgoing_email_enabled?: boolean }>('/api/v1/server_settings').then(
      (settings) => setEnabled(settings.outgoing_email_enabled === true),
      () => setEnabled(false),
    );
  }, []);
  return enabled;
}
