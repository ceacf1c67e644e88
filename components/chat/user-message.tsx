import type { Entry } from "@/lib/client/message-parts";
import { LongMessageText } from "./long-message-text";
import { MediaThumbnail } from "./media-thumbnail";

export interface UserMessageProps {
  /** The person's message, or an answer that no question claimed. */
  message: Entry<"user" | "answer">;
}

/** The person's own message: a right-aligned bubble with line breaks kept and attachment thumbnails. */
export function UserMessage({ message }: UserMessageProps) {
  const { text, media } = message.item;
  return (
    <article data-testid={`message-${message.role}`} data-seq={message.seq} aria-label="You" className="flex flex-col items-end gap-1">
      {media.length > 0 && (
        <ul className="flex flex-wrap justify-end gap-2" aria-label="Attachments">
          {media.map((url, i) => (
            <li key={`${i}:${url}`}>
              <MediaThumbnail url={url} label={`Attachment ${i + 1}`} />
            </li>
          ))}
        </ul>
      )}
      {text && (
        <div className="max-w-[85%] rounded-2xl rounded-br-md bg-primary px-4 py-2 whitespace-pre-wrap break-words text-primary-foreground">
          <LongMessageText text={text} />
        </div>
      )}
    </article>
  );
}
