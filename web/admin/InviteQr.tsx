import { encode } from 'uqr';

/**
 * An invitation link as a QR code, drawn as SVG from the code's modules (uqr encodes; the
 * drawing is ours, so no markup from elsewhere enters the page). Its own chunk: the encoder
 * loads only when someone asks for the code.
 */
export function InviteQr({ link }: { link: string }) {
  // Medium error correction: still readable from the back of a room, with a moderate size.
  const { data, size } = encode(link, { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg class="invite-qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={`QR code of the invitation link ${link}`} shape-rendering="crispEdges">
      <rect width={size} height={size} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
