import { Slot } from "@radix-ui/react-slot";
import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "./cn";

export const cardVariants = cva("rounded-lg border text-card-foreground", {
  variants: {
    tone: {
      default: "bg-card",
      info: "border-primary-border bg-primary-soft",
      danger: "border-danger-border bg-danger-soft text-danger-soft-foreground",
      warning: "border-warning-border bg-warning-soft text-warning-soft-foreground",
      success: "border-success-border bg-card",
      muted: "border-dashed bg-transparent text-muted-foreground",
    },
    padding: { none: "", sm: "p-3", md: "p-4" },
  },
  defaultVariants: { tone: "default", padding: "sm" },
});

export type CardProps = ComponentProps<"div"> &
  VariantProps<typeof cardVariants> & {
    /** Style the only child (a <section>, <article>, <form>…) as the card. */
    asChild?: boolean;
  };

/** A bordered surface: steps, plans, questions, errors, panels. */
export function Card({ className, tone, padding, asChild = false, ...props }: CardProps) {
  const Comp = asChild ? Slot : "div";
  return <Comp {...props} className={cn(cardVariants({ tone, padding }), className)} />;
}

/** A card's small heading ("Planner · plan", "Question"). */
export function CardTitle({ className, ...props }: ComponentProps<"h3">) {
  return <h3 {...props} className={cn("text-sm font-semibold", className)} />;
}

/** The quieter, upper-case label over a card's content ("Result", "Tool review"). */
export function CardEyebrow({ className, ...props }: ComponentProps<"h3">) {
  return <h3 {...props} className={cn("text-xs font-semibold tracking-wide text-muted-foreground uppercase", className)} />;
}
