import md5 from 'blueimp-md5';
import type { User } from '../types';

/**
 * A person's avatar URL. The client registers with client_gravatar, so the server leaves out
 * (null) the URL of every gravatar whose owner's address this client may see: 80 bytes a
 * person, most of a large organization's people list. The client makes it from that address,
 * as the server would. No one (a person not known here): null, the default picture.
 */
export function avatarUrlOf(person: Pick<User, 'avatar_url' | 'email' | 'delivery_email'> | undefined): string | null {
  if (person === undefined) return null;
  if (person.avatar_url !== null) return person.avatar_url;
  const address = (person.delivery_email || person.email).toLowerCase();
  return `https://secure.gravatar.com/avatar/${md5(address)}?d=identicon`;
}
