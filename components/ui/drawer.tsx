"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * A panel that slides over the page (Radix Dialog): focus moves in and stays
 * until it closes, Escape or the overlay closes it, focus returns to the
 * button that opened it. Used for the sessions list and the preview at phone width.
 */
export const Drawer = DialogPrimitive.Root;
export const DrawerTrigger = DialogPrimitive.Trigger;
export const DrawerClose = DialogPrimitive.Close;

const drawerVariants = cva("fixed z-50 flex flex-col bg-background shadow-xl focus:outline-none", {
  variants: {
    side: {
      left: "inset-y-0 left-0 w-[85%] max-w-sm border-r motion-safe:animate-slide-in-left",
      right: "inset-y-0 right-0 w-full max-w-2xl border-l motion-safe:animate-slide-in-right",
    },
  },
  defaultVariants: { side: "right" },
});

export type DrawerContentProps = ComponentProps<typeof DialogPrimitive.Content> & VariantProps<typeof drawerVariants>;

export function DrawerContent({ className, side, children, ...props }: DrawerContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-overlay motion-safe:animate-fade-in" />
      {/* No description by default: the title and the content speak for themselves. */}
      <DialogPrimitive.Content aria-describedby={undefined} {...props} className={cn(drawerVariants({ side }), className)}>
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** The drawer's header row: its title, then actions (a close button). */
export function DrawerHeader({ className, ...props }: ComponentProps<"div">) {
  return <div {...props} className={cn("flex shrink-0 items-center gap-2 border-b px-3 py-2", className)} />;
}

/** Every drawer needs a title: it names the dialog for screen readers. */
export function DrawerTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title {...props} className={cn("flex-1 truncate text-sm font-semibold", className)} />;
}
