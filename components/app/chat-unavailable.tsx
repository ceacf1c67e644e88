import { Lock, Plus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

/**
 * Shown instead of a chat this browser may not open: a link copied to
 * another browser, or a chat that was deleted. The server's API wording
 * (tokens, headers) is for API clients; a person gets plain words and a way on.
 */
export function ChatUnavailable({ onNewChat }: { onNewChat: () => void }) {
  return (
    <div className="flex h-full items-center justify-center p-6">
      <Card asChild padding="md" className="flex max-w-md flex-col items-center gap-3 text-center">
        <section role="alert" data-testid="chat-unavailable" aria-labelledby="chat-unavailable-title">
          <span aria-hidden="true" className="inline-flex size-10 items-center justify-center rounded-full bg-muted text-muted-foreground">
            <Lock className="size-5" />
          </span>
          <h2 id="chat-unavailable-title" className="text-base font-semibold">
            This chat can’t be opened here
          </h2>
          <p className="text-sm text-muted-foreground">
            It belongs to another browser, or it no longer exists. A chat stays with the browser that started it.
          </p>
          <Button onClick={onNewChat}>
            <Plus aria-hidden="true" />
            Start a new chat
          </Button>
        </section>
      </Card>
    </div>
  );
}
