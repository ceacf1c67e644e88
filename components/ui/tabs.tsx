"use client";

import * as TabsPrimitive from "@radix-ui/react-tabs";
import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * WAI-ARIA tabs (Radix): one tab stop with arrow keys, Home and End, and
 * automatic activation. Controlled with value / onValueChange.
 */
export function Tabs({ className, ...props }: ComponentProps<typeof TabsPrimitive.Root>) {
  return <TabsPrimitive.Root {...props} className={cn("flex flex-col", className)} />;
}

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return <TabsPrimitive.List {...props} className={cn("flex shrink-0 gap-1 border-b", className)} />;
}

/** An underlined tab; the selected one takes the primary colour. */
export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      {...props}
      className={cn(
        "focus-ring-inset relative -mb-px inline-flex cursor-pointer items-center gap-1.5 rounded-t-md border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-muted-foreground transition-colors hover:text-foreground",
        "data-[state=active]:border-primary data-[state=active]:text-foreground",
        className,
      )}
    />
  );
}

/**
 * A tab's panel. With `keepMounted` it stays in the page while hidden (a
 * half-drawn region or a zoom level survives switching tabs).
 */
export function TabsContent({ className, keepMounted = false, ...props }: ComponentProps<typeof TabsPrimitive.Content> & { keepMounted?: boolean }) {
  return (
    <TabsPrimitive.Content
      {...(keepMounted ? { forceMount: true } : {})}
      {...props}
      className={cn("focus-ring-inset data-[state=inactive]:hidden", className)}
    />
  );
}
