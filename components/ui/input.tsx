import type { ComponentProps } from "react";
import { cn } from "./cn";

/** Single-line text entry, the height of a small button so they line up. */
export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return (
    <input
      type={type}
      {...props}
      className={cn(
        "focus-ring h-control-sm w-full min-w-0 rounded-md border border-input bg-card px-2.5 text-sm text-foreground placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:bg-muted disabled:opacity-70",
        className,
      )}
    />
  );
}
