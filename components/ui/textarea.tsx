import type { ComponentProps } from "react";
import { cn } from "./cn";

export type TextareaProps = ComponentProps<"textarea"> & {
  /** Bare: no border or background, for a textarea inside a framed composer. */
  bare?: boolean;
};

/** Multi-line text entry. */
export function Textarea({ className, bare = false, ...props }: TextareaProps) {
  return (
    <textarea
      {...props}
      className={cn(
        "w-full min-w-0 resize-none text-sm placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:opacity-60",
        bare ? "bg-transparent focus:outline-none" : "focus-ring rounded-md border border-input bg-card px-3 py-2",
        className,
      )}
    />
  );
}
