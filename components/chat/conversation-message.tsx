import { Eye } from "lucide-react";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { CopyButton } from "./copy-button";
import { MarkdownText } from "./markdown-text";
import { MediaThumbnail } from "./media-thumbnail";

export interface ConversationMessageProps {
  /** Where the reply sits in the transcript (its seq and role). */
  message: StreamedMessage;
  /** The reply (Markdown). */
  text: string;
  media?: readonly string[];
}

/** The conversation agent's reply, rendered as Markdown, left-aligned under a speaker label, with Copy. */
export function ConversationMessage({ message, text, media = [] }: ConversationMessageProps) {
  return (
    <article data-testid={`message-${message.role}`} data-seq={message.seq} aria-label="Argus" className="max-w-full">
      <p className="mb-1.5 flex items-center gap-1.5 text-xs font-semibold text-muted-foreground">
        <span aria-hidden="true" className="inline-flex size-5 items-center justify-center rounded-md bg-primary text-primary-foreground">
          <Eye className="size-3" />
        </span>
        Argus
      </p>
      <MarkdownText text={text} />
      {media.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label="Files">
          {media.map((url, i) => (
            <li key={`${i}:${url}`}>
              <MediaThumbnail url={url} label={`File ${i + 1}`} />
            </li>
          ))}
        </ul>
      )}
      {/* The answer as written (Markdown), to paste elsewhere. */}
      {text.trim() && <CopyButton text={text} what="answer" className="mt-1 -ml-2" />}
    </article>
  );
}
