"use client";

import * as TooltipPrimitive from "@radix-ui/react-tooltip";
import type { ReactElement, ReactNode } from "react";
import { cn } from "./cn";

export interface TooltipProps {
  /** What the tooltip says: a visual hint only, never the control's only name. */
  content: ReactNode;
  /** One focusable element (a button); it becomes the trigger. */
  children: ReactElement;
  side?: "top" | "right" | "bottom" | "left";
  className?: string;
}

/**
 * A hover and focus hint. It carries its own provider, so any component can
 * use one; it ignores the pointer (it never covers what it points at).
 */
export function Tooltip({ content, children, side = "top", className }: TooltipProps) {
  return (
    <TooltipPrimitive.Provider delayDuration={500} skipDelayDuration={200} disableHoverableContent>
      <TooltipPrimitive.Root>
        <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
        <TooltipPrimitive.Portal>
          <TooltipPrimitive.Content
            side={side}
            sideOffset={6}
            className={cn(
              "pointer-events-none z-50 max-w-64 rounded-md bg-foreground px-2 py-1 text-xs text-background shadow-md motion-safe:animate-fade-in",
              className,
            )}
          >
            {content}
          </TooltipPrimitive.Content>
        </TooltipPrimitive.Portal>
      </TooltipPrimitive.Root>
    </TooltipPrimitive.Provider>
  );
}
