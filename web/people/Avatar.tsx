const DEFAULT_AVATAR = '/static/images/default-avatar.png';

/**
 * A person's picture; when it cannot be loaded (a gravatar on a network without Internet),
 * Stoa's default picture instead.
 */
export function Avatar({ url, size, class: className = 'avatar', alt = '' }: { url: string | null | undefined; size: number; class?: string; alt?: string }) {
  return (
    <img
      class={className}
      src={url ?? DEFAULT_AVATAR}
      alt={alt}
      width={size}
      height={size}
      loading="lazy"
      onError={(e) => {
        const img = e.currentTarget;
        if (!img.src.endsWith(DEFAULT_AVATAR)) img.src = DEFAULT_AVATAR;
      }}
    />
  );
}
