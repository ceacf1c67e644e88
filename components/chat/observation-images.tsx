import { isSafeImageUrl } from "@/lib/client/message-parts";

export interface ObservationImagesProps {
  urls: readonly string[];
  /** The kernel's caption, e.g. "2 image(s) displayed". */
  caption?: string;
}

/** Pictures a cell displayed, inline at a readable size; each opens full size in a new tab. */
export function ObservationImages({ urls, caption }: ObservationImagesProps) {
  const safe = urls.filter(isSafeImageUrl);
  if (safe.length === 0) return caption ? <p className="my-2 text-xs text-muted-foreground">{caption}</p> : null;
  return (
    <figure className="my-2">
      <ul className="flex flex-wrap gap-2">
        {safe.map((url, i) => (
          <li key={`${i}:${url}`}>
            <a
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Output image ${i + 1} (open full size)`}
              className="focus-ring block rounded-md"
            >
              <img
                src={url}
                alt={`Output image ${i + 1}`}
                loading="lazy"
                className="max-h-80 max-w-full rounded-md border bg-white object-contain"
              />
            </a>
          </li>
        ))}
      </ul>
      {caption && <figcaption className="mt-1 text-xs text-muted-foreground">{caption}</figcaption>}
    </figure>
  );
}
